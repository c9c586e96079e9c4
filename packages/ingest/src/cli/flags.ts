import { type AnyOptionSet, parseOptionStrings, type RawValue, toKebabCase } from '@docsvc/partition';
import { type Command, Option } from 'commander';

/**
 * Option sets → commander flags, and parsed flags → validated options. `max_characters` becomes
 * `--max-characters`; booleans get `--x` and `--no-x`; lists take comma-joined values and may repeat;
 * a field's `env` variable supplies its default (flag > env > default). When two sets on one command
 * declare the same name (engine_a's `--api-key` and the partition API's), the first set keeps the flag
 * and the other is reachable through its aliases. Nothing here lists options by hand.
 */
export class CommandFlags {
  /** commander attribute name → which set and field owns it. */
  private readonly owners = new Map<string, { set: AnyOptionSet; name: string }>();

  constructor(private readonly command: Command) {}

  add(set: AnyOptionSet): this {
    for (const { name, spec } of set.fields) {
      const names = [name, ...(spec.aliases ?? [])].filter(
        (candidate) => !this.owners.has(attributeName(candidate)),
      );
      for (const [index, candidate] of names.entries()) {
        this.owners.set(attributeName(candidate), { set, name });
        this.command.addOption(buildOption(candidate, spec, index > 0));
        if (spec.kind === 'boolean')
          this.command.addOption(new Option(`--no-${toKebabCase(candidate)}`).hideHelp());
      }
    }
    return this;
  }

  /** Read and validate one set's values (throws ServiceError invalid_option naming the field). */
  read<T>(
    set: { fields: AnyOptionSet['fields']; parse(input: unknown): T },
    opts: Record<string, unknown>,
  ): T {
    const raw: Record<string, RawValue | undefined> = {};
    for (const [attribute, owner] of this.owners) {
      if (owner.set !== (set as unknown) || opts[attribute] === undefined) continue;
      const value = opts[attribute];
      raw[owner.name] = typeof value === 'boolean' ? String(value) : (value as RawValue);
    }
    return parseOptionStrings(set as AnyOptionSet, raw, { ignoreUnknown: false }) as T;
  }
}

function buildOption(name: string, spec: AnyOptionSet['fields'][number]['spec'], isAlias: boolean): Option {
  const flag = `--${toKebabCase(name)}`;
  const defaultNote =
    spec.default !== undefined && !isAlias ? ` (default: ${JSON.stringify(spec.default)})` : '';
  // commander itself adds "(env: NAME)" to the help of an option with an environment variable.
  const description = `${spec.description}${defaultNote}${spec.deprecated ? ` [deprecated: ${spec.deprecated}]` : ''}`;
  if (spec.kind === 'boolean') {
    const option = new Option(flag, description);
    if (spec.env && !isAlias) option.env(spec.env);
    if (isAlias) option.hideHelp();
    return option;
  }
  const placeholder =
    spec.placeholder ?? (spec.kind === 'enum' ? '<value>' : `<${spec.kind.replace('_list', 's')}>`);
  const option = new Option(`${flag} ${placeholder}`, description);
  if (spec.values) option.choices(spec.values as string[]);
  if (spec.env && !isAlias) option.env(spec.env);
  if (spec.kind === 'string_list' || spec.kind === 'integer_list') {
    option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  }
  if (isAlias) option.hideHelp();
  return option;
}

/** commander's attribute name of a flag: `max_characters` → `maxCharacters`. */
function attributeName(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());
}
