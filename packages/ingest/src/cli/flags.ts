import { type AnyOptionSet, parseOptionStrings, type RawValue, toKebabCase } from '@docsvc/partition';
import { type Command, Option } from 'commander';

/**
 * Option sets → commander flags, and parsed flags → validated options. The flag of `max_characters` is
 * `--max-characters`; booleans get `--x` and `--no-x`; lists take comma-joined values and may repeat;
 * a field's `env` variable supplies its default (flag > env > default). Nothing here lists options by
 * hand: every flag comes from an option set declaration.
 */
export function addOptionSet(command: Command, set: AnyOptionSet, { hidden = false } = {}): void {
  for (const { name, spec } of set.fields) {
    const flag = `--${toKebabCase(name)}`;
    const defaultNote = spec.default !== undefined ? ` (default: ${JSON.stringify(spec.default)})` : '';
    const description = `${spec.description}${defaultNote}${spec.deprecated ? ` [deprecated: ${spec.deprecated}]` : ''}`;
    if (spec.kind === 'boolean') {
      const option = new Option(flag, description);
      if (spec.env) option.env(spec.env);
      if (hidden) option.hideHelp();
      command.addOption(option);
      command.addOption(new Option(`--no-${toKebabCase(name)}`).hideHelp());
      continue;
    }
    const placeholder =
      spec.placeholder ?? (spec.kind === 'enum' ? '<value>' : `<${spec.kind.replace('_list', 's')}>`);
    const option = new Option(`${flag} ${placeholder}`, description);
    if (spec.values) option.choices(spec.values as string[]);
    if (spec.env) option.env(spec.env);
    if (spec.kind === 'string_list' || spec.kind === 'integer_list') {
      option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    }
    if (hidden) option.hideHelp();
    command.addOption(option);
    for (const alias of spec.aliases ?? []) {
      const aliasOption = new Option(`--${toKebabCase(alias)} ${placeholder}`).hideHelp();
      if (option.parseArg) aliasOption.argParser(option.parseArg);
      command.addOption(aliasOption);
    }
  }
}

/** Read a set's values from parsed commander options and validate them (throws ServiceError invalid_option). */
export function readOptionSet<T>(
  set: { fields: AnyOptionSet['fields']; parse(input: unknown): T },
  opts: Record<string, unknown>,
): T {
  const raw: Record<string, RawValue | undefined> = {};
  for (const { name, spec } of set.fields) {
    for (const candidate of [name, ...(spec.aliases ?? [])]) {
      const value = opts[attributeName(candidate)];
      if (value === undefined) continue;
      raw[name] = typeof value === 'boolean' ? String(value) : (value as RawValue);
    }
  }
  return parseOptionStrings(set as AnyOptionSet, raw, { ignoreUnknown: false }) as T;
}

/** commander's attribute name of a flag: `max_characters` → `maxCharacters`. */
function attributeName(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());
}
