// Where a text that is not JSON goes wrong, by line and column (what an editor shows), not by the
// character position V8's JSON.parse gives. jsonc-parser finds it, with comments and trailing commas
// counted as mistakes, as JSON.parse counts them.
import { type ParseError, ParseErrorCode, parse } from 'jsonc-parser';

const WORDS: Partial<Record<ParseErrorCode, string>> = {
  [ParseErrorCode.InvalidSymbol]: 'a character that JSON does not allow there',
  [ParseErrorCode.InvalidNumberFormat]: 'a number JSON cannot read',
  [ParseErrorCode.PropertyNameExpected]: 'a key in double quotes was expected (a comma too many?)',
  [ParseErrorCode.ValueExpected]: 'a value was expected (a comma too many?)',
  [ParseErrorCode.ColonExpected]: 'a colon was expected',
  [ParseErrorCode.CommaExpected]: 'a comma was expected',
  [ParseErrorCode.CloseBraceExpected]: 'a closing } was expected',
  [ParseErrorCode.CloseBracketExpected]: 'a closing ] was expected',
  [ParseErrorCode.EndOfFileExpected]: 'the text goes on after the end of the JSON',
  [ParseErrorCode.InvalidCommentToken]: 'JSON has no comments',
  [ParseErrorCode.UnexpectedEndOfComment]: 'JSON has no comments',
  [ParseErrorCode.UnexpectedEndOfString]: 'a text is not closed with a double quote',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'a number ends too early',
  [ParseErrorCode.InvalidUnicode]: 'a \\u escape is not valid',
  [ParseErrorCode.InvalidEscapeCharacter]: 'a backslash escape is not valid',
  [ParseErrorCode.InvalidCharacter]: 'a control character inside a text',
};

/** "line 3, column 5: a comma was expected" for the first mistake in `source`. */
export function jsonMistake(source: string): string {
  const errors: ParseError[] = [];
  parse(source, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (source.trim() === '') return 'the file is empty';
  // JSON.parse refused it, so there is a mistake even if this parser let it pass (it should not).
  const first = errors[0] ?? { error: ParseErrorCode.InvalidSymbol, offset: source.length, length: 0 };
  const before = source.slice(0, first.offset).split(/\r\n|\r|\n/);
  const line = before.length;
  const column = before[before.length - 1]!.length + 1;
  return `line ${line}, column ${column}: ${WORDS[first.error] ?? 'the JSON is not valid there'}`;
}
