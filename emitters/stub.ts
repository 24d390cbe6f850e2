/**
 * Stub files: the text of a generated file as the user reads it, with the entity's names in place
 * (docs/decisions.md "The CRUD in the runtime", "Stubs read by the command"). `<%= name %>` is a value; `<% if name
 * %>`, `<% else %>`, `<% end %>` keep or drop a part (`<% if not name %>` the reverse), and a line holding only one
 * of them goes with it. Nothing else: the logic stays in the emitter, which passes the values. The command reads the
 * stubs (cli/stubs.ts) and passes their text: emitters never read the disk.
 */

/** The values of a stub: text for `<%= name %>`, true or false for `<% if name %>`. */
export type StubValues = Readonly<Record<string, string | boolean>>;

/** A stub's text does not fit its values: a name it does not get, a condition left open. */
export class StubError extends Error {
  override readonly name = 'StubError';
}

const TAG = /<%(=?)\s*(.*?)\s*%>/g;

/** `text` with its values in place (see above); `stub` names it in errors. */
export function renderStub(stub: string, text: string, values: StubValues): string {
  // A control tag alone on its line takes the line with it.
  const lines = text.split('\n');
  const kept: string[] = [];
  const stack: Array<{ keep: boolean; inElse: boolean }> = [];
  const active = (): boolean => stack.every((frame) => (frame.inElse ? !frame.keep : frame.keep));
  const flag = (name: string): boolean => {
    const value = values[name];
    if (typeof value !== 'boolean')
      throw new StubError(`stub ${stub} : « ${name} » n'est pas une condition (${value === undefined ? 'absente' : 'un texte'}).`);
    return value;
  };
  for (const [index, line] of lines.entries()) {
    const alone = /^\s*<%\s*(if\s+(?:not\s+)?\w+|else|end)\s*%>\s*$/.exec(line);
    const control = alone?.[1];
    if (control !== undefined) {
      if (control === 'end') {
        if (!stack.pop()) throw new StubError(`stub ${stub}, ligne ${index + 1} : « end » sans « if ».`);
      } else if (control === 'else') {
        const top = stack[stack.length - 1];
        if (!top || top.inElse) throw new StubError(`stub ${stub}, ligne ${index + 1} : « else » sans « if ».`);
        top.inElse = true;
      } else {
        const [, not, name] = /^if\s+(not\s+)?(\w+)$/.exec(control)!;
        stack.push({ keep: flag(name!) !== (not !== undefined), inElse: false });
      }
      continue;
    }
    if (!active()) continue;
    kept.push(
      line.replace(TAG, (_all, equals: string, expression: string) => {
        if (equals !== '=') throw new StubError(`stub ${stub}, ligne ${index + 1} : « <% ${expression} %> » doit être seul sur sa ligne.`);
        const value = values[expression];
        if (typeof value !== 'string') throw new StubError(`stub ${stub}, ligne ${index + 1} : la valeur « ${expression} » manque.`);
        return value;
      }),
    );
  }
  if (stack.length > 0) throw new StubError(`stub ${stub} : un « if » n'a pas de « end ».`);
  return kept.join('\n');
}
