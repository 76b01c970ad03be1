/**
 * A message's text as it is stored: lone surrogates become U+FFFD (as a text parameter stored them) and NUL, which
 * PostgreSQL refuses, goes.
 */
export const cleanText = (text: string) =>
  text
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replaceAll(String.fromCharCode(0), '');
