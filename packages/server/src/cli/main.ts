#!/usr/bin/env node
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { resolveServerConfig, type ServerConfig, serverOptions } from '../config.js';
import { SecretBox } from '../keys/crypto.js';
import { DEFAULT_ORGANISATION, KeyStore } from '../keys/store.js';
import { createService, loadOrCreateMasterKey } from '../service.js';
import { openDatabase } from '../storage/database.js';

/**
 * `service-server [start]` runs the HTTP API; `service-server keys ...` and `workspaces create` are the
 * operator commands. Flags are generated from the server option set; env variables are the defaults.
 */
function addServerFlags(command: Command, names?: readonly string[]): Command {
  for (const { name, spec } of serverOptions.fields) {
    if (names && !names.includes(name)) continue;
    const flag = `--${name.replaceAll('_', '-')}`;
    const option = new Option(
      spec.kind === 'boolean' ? flag : `${flag} ${spec.placeholder ?? '<value>'}`,
      // Env variables are read by resolveServerConfig (where an empty value means unset), not here.
      spec.env ? `${spec.description} (env: ${spec.env})` : spec.description,
    );
    command.addOption(option);
  }
  return command;
}

function configFrom(opts: Record<string, unknown>): ServerConfig {
  const overrides: Record<string, unknown> = {};
  for (const { name, spec } of serverOptions.fields) {
    const value = opts[name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
    if (value === undefined) continue;
    overrides[name] =
      spec.kind === 'integer' || spec.kind === 'number'
        ? Number(value)
        : spec.kind === 'string_list'
          ? String(value)
              .split(',')
              .map((v) => v.trim())
              .filter(Boolean)
          : value;
  }
  return resolveServerConfig(overrides);
}

async function openKeyStore(config: ServerConfig) {
  const dataDir = resolve(config.data_dir);
  await mkdir(dataDir, { recursive: true });
  const box = new SecretBox(config.secret_key ?? (await loadOrCreateMasterKey(dataDir)));
  const database = await openDatabase({ databaseUrl: config.database_url, dataDir });
  return { keys: new KeyStore(database.db, box), close: () => database.close() };
}

async function start(config: ServerConfig): Promise<void> {
  const service = await createService(config);
  if (service.initialKey) {
    process.stdout.write(
      `\nCreated the default workspace and its first API key (shown once; reveal it later with the keys API):\n\n  ${service.initialKey}\n\nSend it in the service-api-key header.\n\n`,
    );
  }
  const address = await service.app.listen({ host: config.host, port: config.port });
  process.stdout.write(`service-server listening on ${address} (database: ${service.database.kind})\n`);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    service.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await service.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

export function buildProgram(): Command {
  const program = new Command('service-server')
    .description('The document-processing HTTP API.')
    .exitOverride();
  addServerFlags(program.command('start', { isDefault: true }).description('Run the HTTP API.')).action(
    async (opts) => {
      await start(configFrom(opts));
    },
  );

  const storageFlags = ['data_dir', 'database_url', 'secret_key'];
  const keys = program
    .command('keys')
    .description('Manage API keys (operator command; talks to the database directly).');
  addServerFlags(keys.command('create').description('Create a key and print it.'), storageFlags)
    .requiredOption('--workspace <name>', 'Workspace the key belongs to (created when missing).')
    .option('--organisation <name>', 'Organisation of the workspace.', DEFAULT_ORGANISATION)
    .option('--name <name>', 'A label for the key.', 'cli')
    .action(async (opts) => {
      const store = await openKeyStore(configFrom(opts));
      try {
        const workspace = await store.keys.ensureWorkspace(opts.workspace, opts.organisation);
        const { key } = await store.keys.createKey(workspace.id, opts.name);
        process.stdout.write(`${key}\n`);
      } finally {
        await store.close();
      }
    });
  addServerFlags(keys.command('list').description('List the keys of a workspace.'), storageFlags)
    .requiredOption('--workspace <name>', 'Workspace name.')
    .option('--organisation <name>', 'Organisation of the workspace.', DEFAULT_ORGANISATION)
    .action(async (opts) => {
      const store = await openKeyStore(configFrom(opts));
      try {
        const workspace = await store.keys.findWorkspace(opts.workspace, opts.organisation);
        if (!workspace) throw new CommanderError(2, 'usage', `no workspace ${opts.workspace}`);
        for (const info of await store.keys.listKeys(workspace.id)) {
          process.stdout.write(
            `${info.id}  ${info.prefix}…  ${info.name}  ${info.revoked_at ? 'revoked' : 'active'}\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
  addServerFlags(keys.command('revoke').description('Revoke a key.'), storageFlags)
    .requiredOption('--workspace <name>', 'Workspace name.')
    .requiredOption('--id <id>', 'Key id (from keys list).')
    .option('--organisation <name>', 'Organisation of the workspace.', DEFAULT_ORGANISATION)
    .action(async (opts) => {
      const store = await openKeyStore(configFrom(opts));
      try {
        const workspace = await store.keys.findWorkspace(opts.workspace, opts.organisation);
        const revoked = workspace && (await store.keys.revokeKey(workspace.id, opts.id));
        if (!revoked)
          throw new CommanderError(2, 'usage', `no key ${opts.id} in workspace ${opts.workspace}`);
        process.stdout.write(`revoked ${revoked.id}\n`);
      } finally {
        await store.close();
      }
    });
  addServerFlags(
    program.command('workspaces').command('create').description('Create a workspace.'),
    storageFlags,
  )
    .requiredOption('--name <name>', 'Workspace name.')
    .option('--organisation <name>', 'Organisation (created when missing).', DEFAULT_ORGANISATION)
    .action(async (opts) => {
      const store = await openKeyStore(configFrom(opts));
      try {
        const workspace = await store.keys.ensureWorkspace(opts.name, opts.organisation);
        process.stdout.write(`${workspace.id}\n`);
      } finally {
        await store.close();
      }
    });
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    if (error.code === 'usage') process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = error.code === 'commander.helpDisplayed' || error.code === 'commander.help' ? 0 : 2;
  } else {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
