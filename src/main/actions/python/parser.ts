// A recursive-descent parser for the statement subset models write: expression statements, `import`, `pass`.
// It builds a small syntax tree of names, attributes, calls and literals. Everything outside that subset
// (assignments, loops, conditionals, operators, comprehensions, lambdas, subscripts, dicts...) is refused at
// the token where it starts, with a reason the model can act on. Nothing here evaluates anything.
import { Refusal } from '../refusal';
import { tokenStream, type Token } from './tokenizer';
import { lookupTable } from '../lookup';

export type Expr =
  | { kind: 'name'; name: string; at: number }
  | { kind: 'attr'; object: Expr; name: string; at: number }
  | { kind: 'call'; callee: Expr; args: Arg[]; at: number; end: number }
  | { kind: 'num'; value: number; isInt: boolean; at: number }
  | { kind: 'str'; value: string; at: number }
  | { kind: 'const'; value: boolean | null; at: number }
  | { kind: 'list' | 'tuple'; items: Expr[]; at: number }
  | { kind: 'starred'; value: Expr; at: number };

export interface Arg {
  /** Keyword name, absent for positional arguments. */
  name?: string;
  value: Expr;
  at: number;
}

export type Statement =
  | { kind: 'expr'; expr: Expr; at: number }
  | { kind: 'import'; modules: { name: string; at: number }[]; at: number }
  | { kind: 'pass'; at: number };

const COMPOUND: Record<string, string> = lookupTable({
  if: "'if' statements are not allowed: decide from the screenshot and write only the actions to perform",
  elif: "'elif' is not allowed: write only the actions to perform",
  else: "'else' is not allowed: write only the actions to perform",
  for: "'for' loops are not allowed: write each action as its own call (use presses= or clicks= to repeat)",
  while: "'while' loops are not allowed: write each action as its own call",
  def: 'defining functions is not allowed: write the pyautogui calls directly',
  class: 'defining classes is not allowed: write the pyautogui calls directly',
  with: "'with' blocks are not allowed: write the pyautogui calls directly",
  try: "'try' blocks are not allowed: write the pyautogui calls directly",
  except: "'except' is not allowed: write the pyautogui calls directly",
  finally: "'finally' is not allowed: write the pyautogui calls directly",
  lambda: 'lambda expressions are not allowed: write the pyautogui calls directly',
  return: "'return' is not allowed: write only pyautogui calls",
  yield: "'yield' is not allowed: write only pyautogui calls",
  del: "'del' is not allowed: write only pyautogui calls",
  global: "'global' is not allowed: write only pyautogui calls",
  nonlocal: "'nonlocal' is not allowed: write only pyautogui calls",
  assert: "'assert' is not allowed: write only pyautogui calls",
  raise: "'raise' is not allowed: write only pyautogui calls",
  break: "'break' is not allowed: write only pyautogui calls",
  continue: "'continue' is not allowed: write only pyautogui calls",
  async: "'async' is not allowed: write only pyautogui calls",
  await: "'await' is not allowed: write only pyautogui calls",
});

const KEYWORD_IN_EXPR: Record<string, string> = lookupTable({
  not: "the operator 'not' is not allowed: arguments must be literal values",
  and: "the operator 'and' is not allowed: arguments must be literal values",
  or: "the operator 'or' is not allowed: arguments must be literal values",
  in: "the operator 'in' is not allowed: arguments must be literal values",
  is: "the operator 'is' is not allowed: arguments must be literal values",
  if: "conditional expressions ('x if c else y') are not allowed: write the literal value",
  for: 'comprehensions and generator expressions are not allowed: write the literal values',
  lambda: 'lambda expressions are not allowed',
  await: "'await' is not allowed",
  yield: "'yield' is not allowed",
  import: "'import' must start its own statement",
  from: "'from' is not allowed here",
  as: "'as' is not allowed",
});

const ASSIGN_OPS = new Set([
  '+=',
  '-=',
  '*=',
  '/=',
  '//=',
  '%=',
  '**=',
  '>>=',
  '<<=',
  '&=',
  '|=',
  '^=',
  '@=',
]);
const BINARY_OPS = new Set([
  '+',
  '-',
  '*',
  '/',
  '//',
  '%',
  '**',
  '@',
  '<<',
  '>>',
  '&',
  '|',
  '^',
  '<',
  '>',
  '==',
  '!=',
  '<=',
  '>=',
]);

export const MAX_STATEMENTS = 500;

class Parser {
  private pos = 0;
  private readonly tokens: Token[] = [];
  constructor(private readonly source: Iterator<Token, void, void>) {}

  /** Reads tokens up to index i (lazily, so errors come in reading order). */
  private fill(i: number): void {
    while (this.tokens.length <= i) {
      const last = this.tokens[this.tokens.length - 1];
      if (last?.kind === 'END') return;
      const r = this.source.next();
      if (r.done) return;
      this.tokens.push(r.value);
    }
  }
  private cur(): Token {
    this.fill(this.pos);
    return this.tokens[Math.min(this.pos, this.tokens.length - 1)];
  }
  private peekTok(k = 1): Token {
    this.fill(this.pos + k);
    return this.tokens[Math.min(this.pos + k, this.tokens.length - 1)];
  }
  private isOp(text: string, t: Token = this.cur()): boolean {
    return t.kind === 'OP' && t.text === text;
  }
  private next(): Token {
    const t = this.cur();
    if (t.kind !== 'END') this.pos++;
    return t;
  }
  private expectOp(text: string, what: string): Token {
    if (!this.isOp(text))
      throw new Refusal(this.cur().at, `expected '${text}' ${what}, found ${show(this.cur())}`);
    return this.next();
  }

  file(): Statement[] {
    const out: Statement[] = [];
    while (this.cur().kind !== 'END') {
      if (this.cur().kind === 'NEWLINE') {
        this.next();
        continue;
      }
      if (this.cur().kind === 'INDENT') {
        throw new Refusal(
          this.cur().at,
          'unexpected indent: every statement must start at the same indentation',
        );
      }
      if (this.cur().kind === 'DEDENT') {
        this.next();
        continue;
      }
      // simple_stmt: small_stmt (';' small_stmt)* [';'] NEWLINE
      for (;;) {
        out.push(this.smallStatement());
        if (out.length > MAX_STATEMENTS)
          throw new Refusal(this.cur().at, `too many statements (more than ${MAX_STATEMENTS})`);
        if (this.isOp(';')) {
          this.next();
          if (this.cur().kind === 'NEWLINE' || this.cur().kind === 'END') break;
          continue;
        }
        break;
      }
      if (this.cur().kind === 'NEWLINE') this.next();
      else if (this.cur().kind !== 'END')
        throw new Refusal(
          this.cur().at,
          `expected the end of the statement, found ${show(this.cur())}: write one call per line`,
        );
    }
    return out;
  }

  private smallStatement(): Statement {
    const t = this.cur();
    if (t.kind === 'NAME') {
      if (t.text === 'import') return this.importStatement();
      if (t.text === 'from') {
        const mod = this.peekTok();
        if (mod.kind === 'NAME' && mod.text === 'time') {
          throw new Refusal(
            t.at,
            "'from time import ...' is not allowed: call time.sleep(seconds) directly (pyautogui and time are imported for you)",
          );
        }
        throw new Refusal(
          t.at,
          "'from ... import' is not allowed: only pyautogui and time may be used, and both are imported for you",
        );
      }
      if (t.text === 'pass') {
        this.next();
        return { kind: 'pass', at: t.at };
      }
      const msg = COMPOUND[t.text];
      if (msg !== undefined) throw new Refusal(t.at, msg);
    }
    const expr = this.expression();
    const after = this.cur();
    if (this.isOp('='))
      throw new Refusal(
        after.at,
        'assignments are not allowed: variables are not kept; write literal values into each call',
      );
    if (this.isOp(':=')) throw new Refusal(after.at, "the ':=' operator is not allowed");
    if (after.kind === 'OP' && ASSIGN_OPS.has(after.text))
      throw new Refusal(after.at, `augmented assignment '${after.text}' is not allowed`);
    if (this.isOp(':')) throw new Refusal(after.at, "unexpected ':': annotations and blocks are not allowed");
    if (this.isOp(',')) throw new Refusal(after.at, "unexpected ',': write one call per statement");
    return { kind: 'expr', expr, at: expr.at };
  }

  private importStatement(): Statement {
    const at = this.next().at;
    const modules: { name: string; at: number }[] = [];
    for (;;) {
      const nameTok = this.cur();
      if (nameTok.kind !== 'NAME')
        throw new Refusal(nameTok.at, `expected a module name after 'import', found ${show(nameTok)}`);
      let name = this.next().text;
      while (this.isOp('.')) {
        this.next();
        const part = this.cur();
        if (part.kind !== 'NAME') throw new Refusal(part.at, 'expected a name after the dot');
        name += '.' + this.next().text;
      }
      if (name !== 'pyautogui' && name !== 'time') {
        throw new Refusal(
          nameTok.at,
          `importing '${name}' is not allowed: only pyautogui and time may be used (both are imported for you)`,
        );
      }
      if (this.cur().kind === 'NAME' && this.cur().text === 'as') {
        throw new Refusal(
          this.cur().at,
          `'import ${name} as ...' is not allowed: write ${name}.<function>(...) with the full module name`,
        );
      }
      modules.push({ name, at: nameTok.at });
      if (!this.isOp(',')) break;
      this.next();
    }
    return { kind: 'import', modules, at };
  }

  /** An expression; binary operators, comparisons and conditional expressions are refused. */
  expression(): Expr {
    const e = this.unary();
    const t = this.cur();
    if (t.kind === 'OP' && BINARY_OPS.has(t.text)) {
      const what = t.text === '+' && e.kind === 'str' ? 'string concatenation with' : 'the operator';
      throw new Refusal(
        t.at,
        `${what} '${t.text}' is not allowed: arguments must be literal values such as 100, -5, 'text' or True`,
      );
    }
    if (t.kind === 'NAME' && KEYWORD_IN_EXPR[t.text] !== undefined)
      throw new Refusal(t.at, KEYWORD_IN_EXPR[t.text]);
    if (t.kind === 'OP' && t.text === '~') throw new Refusal(t.at, "the operator '~' is not allowed");
    return e;
  }

  private unary(): Expr {
    const t = this.cur();
    if (this.isOp('-') || this.isOp('+')) {
      this.next();
      const operand = this.unary();
      if (operand.kind !== 'num') {
        throw new Refusal(t.at, `unary '${t.text}' is only allowed in front of a number literal`);
      }
      return {
        kind: 'num',
        value: t.text === '-' ? 0 - operand.value : operand.value,
        isInt: operand.isInt,
        at: t.at,
      };
    }
    if (this.isOp('~')) throw new Refusal(t.at, "the operator '~' is not allowed");
    if (this.isOp('*') || this.isOp('**'))
      throw new Refusal(
        t.at,
        `'${t.text}' is only allowed in front of a SoM name inside a call, e.g. pyautogui.click(*tag_3)`,
      );
    if (t.kind === 'NAME' && KEYWORD_IN_EXPR[t.text] !== undefined)
      throw new Refusal(t.at, KEYWORD_IN_EXPR[t.text]);
    return this.primary();
  }

  private primary(): Expr {
    let e = this.atom();
    for (;;) {
      const t = this.cur();
      if (this.isOp('.')) {
        this.next();
        const nameTok = this.cur();
        if (nameTok.kind !== 'NAME')
          throw new Refusal(nameTok.at, `expected an attribute name after '.', found ${show(nameTok)}`);
        this.next();
        e = { kind: 'attr', object: e, name: nameTok.text, at: nameTok.at };
      } else if (this.isOp('(')) {
        e = this.call(e);
      } else if (this.isOp('[')) {
        throw new Refusal(t.at, 'indexing and slicing are not allowed: write the literal value');
      } else {
        return e;
      }
    }
  }

  private call(callee: Expr): Expr {
    const open = this.next();
    const args: Arg[] = [];
    let sawKeyword = false;
    const seen = new Set<string>();
    while (!this.isOp(')')) {
      const t = this.cur();
      let arg: Arg;
      if (this.isOp('**')) {
        throw new Refusal(
          t.at,
          "'**' argument unpacking is not allowed: write keyword arguments such as button='right'",
        );
      } else if (this.isOp('*')) {
        this.next();
        const value = this.unary();
        arg = { value: { kind: 'starred', value, at: t.at }, at: t.at };
      } else if (t.kind === 'NAME' && this.isOp('=', this.peekTok())) {
        this.next();
        this.next();
        if (seen.has(t.text)) throw new Refusal(t.at, `keyword argument '${t.text}' is given twice`);
        seen.add(t.text);
        arg = { name: t.text, value: this.expression(), at: t.at };
        sawKeyword = true;
      } else {
        arg = { value: this.expression(), at: t.at };
        if (sawKeyword) throw new Refusal(t.at, 'a positional argument follows a keyword argument');
      }
      if (arg.name === undefined && arg.value.kind === 'starred' && sawKeyword) {
        throw new Refusal(t.at, 'a positional argument follows a keyword argument');
      }
      args.push(arg);
      if (this.cur().kind === 'NAME' && this.cur().text === 'for') {
        throw new Refusal(this.cur().at, 'generator expressions are not allowed: write the literal values');
      }
      if (this.isOp(',')) {
        this.next();
        continue;
      }
      if (!this.isOp(')'))
        throw new Refusal(
          this.cur().at,
          `expected ',' or ')' in the argument list, found ${show(this.cur())}`,
        );
    }
    const close = this.next();
    return { kind: 'call', callee, args, at: open.at, end: close.end };
  }

  private atom(): Expr {
    const t = this.cur();
    switch (t.kind) {
      case 'NAME':
        this.next();
        if (t.text === 'True' || t.text === 'False')
          return { kind: 'const', value: t.text === 'True', at: t.at };
        if (t.text === 'None') return { kind: 'const', value: null, at: t.at };
        return { kind: 'name', name: t.text, at: t.at };
      case 'NUMBER':
        this.next();
        return { kind: 'num', value: t.value ?? 0, isInt: t.isInt ?? false, at: t.at };
      case 'STRING': {
        // Adjacent string literals are one string, as in Python.
        let value = '';
        while (this.cur().kind === 'STRING') value += this.next().text;
        return { kind: 'str', value, at: t.at };
      }
      case 'OP':
        if (t.text === '(' || t.text === '[') return this.sequence(t.text === '(' ? ')' : ']');
        if (t.text === '{')
          throw new Refusal(
            t.at,
            'dict and set literals are not allowed: use keyword arguments, lists or tuples',
          );
        if (t.text === '...') throw new Refusal(t.at, "'...' is not allowed");
        throw new Refusal(t.at, `unexpected ${show(t)}`);
      case 'NEWLINE':
      case 'END':
        throw new Refusal(t.at, 'unexpected end of the statement');
      default:
        throw new Refusal(t.at, `unexpected ${show(t)}`);
    }
  }

  /** `( ... )` (a tuple or a parenthesised expression) or `[ ... ]` (a list). */
  private sequence(close: ')' | ']'): Expr {
    const open = this.next();
    const items: Expr[] = [];
    let sawComma = false;
    while (!this.isOp(close)) {
      if (this.isOp('*'))
        throw new Refusal(this.cur().at, "'*' unpacking is only allowed for SoM names in call arguments");
      items.push(this.expression());
      if (this.cur().kind === 'NAME' && this.cur().text === 'for') {
        throw new Refusal(this.cur().at, 'comprehensions are not allowed: write the literal values');
      }
      if (this.isOp(',')) {
        sawComma = true;
        this.next();
        continue;
      }
      if (!this.isOp(close))
        throw new Refusal(this.cur().at, `expected ',' or '${close}', found ${show(this.cur())}`);
    }
    this.next();
    if (close === ']') return { kind: 'list', items, at: open.at };
    if (items.length === 1 && !sawComma) return items[0];
    return { kind: 'tuple', items, at: open.at };
  }
}

function show(t: Token): string {
  switch (t.kind) {
    case 'NAME':
      return `'${t.text}'`;
    case 'NUMBER':
      return `the number ${t.text}`;
    case 'STRING':
      return 'a string';
    case 'OP':
      return `'${t.text}'`;
    case 'NEWLINE':
      return 'the end of the line';
    case 'END':
      return 'the end of the code';
    default:
      return 'an indentation change';
  }
}

/** Statements of text[start, end); throws Refusal. */
export function parsePython(text: string, start = 0, end = text.length): Statement[] {
  return new Parser(tokenStream(text, start, end)).file();
}
