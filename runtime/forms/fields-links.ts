/**
 * LinkRowsField: the links of a many-to-many relation whose pivot has fields of its own (a vaccine given on a date,
 * with a rank): one row of inputs per link, no script needed (docs/crud.md "Many-to-many links"). Row `i` posts
 * `<name>.<i>` (the other side's id, '' for an empty row) and `<name>.<i>.<field>` for each pivot field. A plain
 * `<name>` list of ids (`ids=1&ids=2`, `1,2`), as a RelatedIdsField takes it, gives rows with empty pivot inputs.
 */
import { FormDefinitionError, FormValidationError } from './errors.js';
import { Field, prettyName, type Choice, type ChoiceOption, type FieldInput, type FieldOptions, type FieldState, type SubmittedValues } from './field.js';
import { checkChoices, toOptions, withChoices, type ChoiceHolder } from './fields-choice.js';
import { messages } from './messages.js';

/** One link: the other side's id and the pivot fields' cleaned values, by field name. */
export interface LinkRow {
  readonly id: number;
  readonly values: Readonly<Record<string, unknown>>;
}

export interface LinkRowsFieldOptions extends FieldOptions {
  /** The name the form declares the field under: the rows' inputs are named after it (`<name>.<i>`). */
  name: string;
  /** The pivot's fields, by name: each row cleans its inputs with them. */
  fields: Readonly<Record<string, Field>>;
  /** The label of a row's select (the other side's name for one record); default: the field's label. */
  rowLabel?: string;
  /** Empty rows offered after the links, to add some (default 3). */
  blankRows?: number;
  choices?: readonly Choice[];
}

/** One input of a row, as templates get it. */
export interface LinkInputContext {
  readonly name: string;
  readonly id: string;
  readonly label: string;
  readonly type: string;
  readonly value: string;
  readonly error: string;
  readonly required: boolean;
  readonly attrs: Readonly<Record<string, string | number | boolean>>;
}

/** One row, as templates get it: its select (`name`, `options`, `error`) and its pivot inputs. */
export interface LinkRowContext {
  readonly name: string;
  readonly id: string;
  readonly error: string;
  readonly options: ChoiceOption[];
  readonly inputs: LinkInputContext[];
}

/** A row as posted: its key (the index in `<name>.<key>`), the id typed, the raw value of each pivot input. */
interface RawRow {
  readonly key: string;
  readonly id: string;
  readonly values: (field: string) => string[];
}

const INDEX = /^\d{1,6}$/;

export class LinkRowsField extends Field<LinkRow[]> implements ChoiceHolder {
  override readonly multiple = true;
  readonly choices: readonly Choice[];
  readonly fields: Readonly<Record<string, Field>>;
  readonly rowLabel: string | undefined;
  readonly blankRows: number;
  /** The form's name of the field (option `name`). */
  readonly formName: string;

  constructor(options: LinkRowsFieldOptions) {
    super(options, 'link_rows');
    this.choices = checkChoices(options.choices);
    for (const [name, field] of Object.entries(options.fields)) {
      if (!(field instanceof Field) || field.isFile || field.multiple)
        throw new FormDefinitionError(`LinkRowsField : le champ de lien « ${name} » doit être un champ à une valeur (Field).`);
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.name))
      throw new FormDefinitionError(`LinkRowsField : nom « ${options.name} » invalide (lettres, chiffres, _).`);
    this.formName = options.name;
    this.fields = options.fields;
    this.rowLabel = options.rowLabel;
    this.blankRows = options.blankRows ?? 3;
  }

  withChoices(choices: readonly Choice[]): this {
    return withChoices(this, choices);
  }

  /** The links in row order; an empty row is skipped; every refused input gets its message (FormValidationError.details). */
  clean(input: FieldInput, label: string): LinkRow[] {
    const details: Record<string, string> = {};
    const rows: LinkRow[] = [];
    const allowed = new Set(this.choices.map(([value]) => String(value)));
    for (const raw of this.rawRows(input.values, input.siblings)) {
      if (raw.id === '') continue;
      const rowName = this.rowName(raw.key);
      const id = /^\d{1,15}$/.test(raw.id) ? Number(raw.id) : NaN;
      if (!Number.isSafeInteger(id) || id < 1 || !allowed.has(String(id))) {
        details[rowName] = messages.choice(this.rowLabel ?? label);
        continue;
      }
      if (rows.some((row) => row.id === id)) {
        details[rowName] = messages.linkTwice(this.rowLabel ?? label);
        continue;
      }
      const values: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(this.fields)) {
        const list = raw.values(name);
        try {
          values[name] = field.clean({ value: list[0], values: list, file: undefined }, this.fieldLabel(name));
        } catch (err) {
          if (!(err instanceof FormValidationError)) throw err;
          details[`${rowName}.${name}`] = err.message;
        }
      }
      rows.push({ id, values });
    }
    if (Object.keys(details).length > 0) throw new FormValidationError(messages.linkRows(label), details);
    if (rows.length === 0 && this.required) throw new FormValidationError(messages.required(label));
    return rows;
  }

  /** The ids of an initial value (links, or plain ids): what `values` and the selected choices show. */
  override formatList(value: unknown): string[] {
    if (!Array.isArray(value)) return super.formatList(value);
    return value.map((item: unknown) => (isLinkRow(item) ? String(item.id) : this.format(item)));
  }

  override choiceOptions(selected: readonly string[]): ChoiceOption[] {
    return toOptions(this.choices, new Set(selected));
  }

  /** `rows`: one per link (posted, or of the record edited), then `blankRows` empty ones, each with its messages. */
  override extraContext(state: FieldState): Record<string, unknown> {
    const raws = state.input ? this.rawRows(state.input.values, state.input.siblings) : this.initialRows(state.initial);
    let next = raws.reduce((max, raw) => Math.max(max, Number(raw.key) + 1), 0);
    const blanks = raws.filter((raw) => raw.id === '').length;
    const rows: RawRow[] = [...raws];
    for (let i = blanks; i < this.blankRows; i++) rows.push({ key: String(next++), id: '', values: () => [] });
    return {
      row_label: this.rowLabel ?? state.label,
      rows: rows.map((raw) => this.rowContext(raw, state.details)),
    };
  }

  private rowContext(raw: RawRow, details: Readonly<Record<string, string>>): LinkRowContext {
    const name = this.rowName(raw.key);
    const inputs = Object.entries(this.fields).map(([field, declared]): LinkInputContext => {
      const list = raw.values(field);
      return {
        name: `${name}.${field}`,
        id: `field-${name.replace(/\./g, '-')}-${field}`,
        label: this.fieldLabel(field),
        type: declared.type,
        value: declared.type === 'checkbox' ? (list.some((v) => v !== '' && v !== '0') ? '1' : '') : (list[0] ?? ''),
        error: details[`${name}.${field}`] ?? '',
        required: declared.required,
        attrs: declared.attrs(),
      };
    });
    return { name, id: `field-${name.replace(/\./g, '-')}`, error: details[name] ?? '', options: this.choiceOptions([raw.id]), inputs };
  }

  /** The rows posted: `<name>.<i>` in index order, then the ids of a plain `<name>` list past them. */
  private rawRows(plain: readonly string[], siblings: SubmittedValues | undefined): RawRow[] {
    const prefix = this.rowName('');
    const keys = (siblings?.names ?? [])
      .filter((n) => n.startsWith(prefix) && INDEX.test(n.slice(prefix.length)))
      .map((n) => n.slice(prefix.length))
      .sort((a, b) => Number(a) - Number(b));
    const at = (key: string, field: string): string[] => siblings?.values(`${prefix}${key}.${field}`) ?? [];
    const rows: RawRow[] = keys.map((key) => ({ key, id: (siblings?.values(`${prefix}${key}`)[0] ?? '').trim(), values: (field) => at(key, field) }));
    let next = keys.reduce((max, key) => Math.max(max, Number(key) + 1), 0);
    for (const id of plain
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '')) {
      const key = String(next++);
      rows.push({ key, id, values: (field) => at(key, field) });
    }
    return rows;
  }

  /** The rows of an initial value: links (their values shown as each field formats them) or plain ids. */
  private initialRows(initial: unknown): RawRow[] {
    const items: unknown[] = Array.isArray(initial) ? initial : [];
    return items.map((item, i) => {
      const link = isLinkRow(item) ? item : null;
      const id = link ? String(link.id) : this.format(item);
      return { key: String(i), id, values: (field) => (link && Object.hasOwn(link.values, field) ? this.fields[field]!.formatList(link.values[field]) : []) };
    });
  }

  /** `<name>.<key>`, the name of a row's select. */
  private rowName(key: string): string {
    return `${this.formName}.${key}`;
  }

  private fieldLabel(name: string): string {
    return this.fields[name]!.label ?? prettyName(name);
  }
}

function isLinkRow(value: unknown): value is LinkRow {
  return typeof value === 'object' && value !== null && 'id' in value && 'values' in value;
}
