import { randomBytes, X509Certificate } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { USERS } from './config.js';
import { run } from './process.js';
import type { Context } from './service.js';

/**
 * A throw-away certificate authority for the nginx front, made with openssl on first use: a CA, a server
 * certificate for localhost/127.0.0.1 (served with the CA as its chain, so fingerprint pinning of the CA
 * works), a client certificate for engine_b's client-certificate port, and nginx's basic-auth file.
 */

export interface TlsFiles {
  caCert: string;
  caKey: string;
  serverKey: string;
  serverCert: string;
  /** Server certificate followed by the CA certificate: what nginx sends. */
  serverChain: string;
  clientKey: string;
  clientCert: string;
  htpasswd: string;
}

export function tlsFiles(ctx: Context): TlsFiles {
  const dir = ctx.paths.tls;
  return {
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    serverKey: join(dir, 'server.key'),
    serverCert: join(dir, 'server.crt'),
    serverChain: join(dir, 'server-chain.crt'),
    clientKey: join(dir, 'client.key'),
    clientCert: join(dir, 'client.crt'),
    htpasswd: join(dir, 'htpasswd'),
  };
}

/** SHA-256 fingerprint of the CA certificate, `AA:BB:…` (the form Elasticsearch clients accept). */
export function caFingerprint(ctx: Context): string {
  return new X509Certificate(readFileSync(tlsFiles(ctx).caCert)).fingerprint256;
}

function stillValid(certFile: string, days: number): boolean {
  if (!existsSync(certFile)) return false;
  const validTo = new Date(new X509Certificate(readFileSync(certFile)).validTo).getTime();
  return validTo - Date.now() > days * 86_400_000;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function signedCertificate(
  files: TlsFiles,
  keyFile: string,
  certFile: string,
  subject: string,
  extensions: string[],
): Promise<void> {
  const csr = `${certFile}.csr`;
  const ext = `${certFile}.ext`;
  writeFileSync(ext, `${extensions.join('\n')}\n`);
  try {
    await run('openssl', ['req', '-new', ...EC_KEY, '-keyout', keyFile, '-out', csr, '-subj', subject]);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      files.caCert,
      '-CAkey',
      files.caKey,
      '-set_serial',
      `0x${randomBytes(12).toString('hex')}`,
      '-days',
      '825',
      '-sha256',
      '-extfile',
      ext,
      '-out',
      certFile,
    ]);
  } finally {
    rmSync(csr, { force: true });
    rmSync(ext, { force: true });
  }
}

/** Creates whatever is missing or about to expire; cheap when everything is in place. */
export async function ensureTls(ctx: Context): Promise<TlsFiles> {
  const files = tlsFiles(ctx);
  mkdirSync(ctx.paths.tls, { recursive: true });
  let renewLeaves = false;
  if (!stillValid(files.caCert, 30)) {
    ctx.log('proxy: creating a throw-away certificate authority');
    await run('openssl', [
      'req',
      '-x509',
      ...EC_KEY,
      '-keyout',
      files.caKey,
      '-out',
      files.caCert,
      '-days',
      '3650',
      '-sha256',
      '-subj',
      '/CN=docsvc test services CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    renewLeaves = true;
  }
  if (renewLeaves || !stillValid(files.serverCert, 7) || !existsSync(files.serverKey)) {
    await signedCertificate(files, files.serverKey, files.serverCert, '/CN=localhost', [
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
    ]);
    writeFileSync(
      files.serverChain,
      readFileSync(files.serverCert, 'utf8') + readFileSync(files.caCert, 'utf8'),
    );
  }
  if (renewLeaves || !stillValid(files.clientCert, 7) || !existsSync(files.clientKey)) {
    await signedCertificate(files, files.clientKey, files.clientCert, '/CN=docsvc-test-client', [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=clientAuth',
    ]);
  }
  const { stdout: hash } = await run('openssl', ['passwd', '-apr1', '-stdin'], {
    input: `${ctx.secrets.engineBPassword}\n`,
  });
  writeFileSync(files.htpasswd, `${USERS.engineB}:${hash.trim()}\n`, { mode: 0o600 });
  // nginx runs as the service user: it must read its own key and the password file, not the CA key.
  if (ctx.serviceUser) {
    for (const file of [files.serverKey, files.htpasswd])
      chownSync(file, ctx.serviceUser.uid, ctx.serviceUser.gid);
  }
  return files;
}
