// Package safetext makes text read from files safe to show. A tensor or
// recipe name is the file's content: printed as it is, a name holding
// "ESC ]0;…BEL ESC [2J" retitles and clears the reader's terminal, a
// right-to-left override reorders what the reader sees, and a CSV cell
// starting with "=" is a formula the reader's spreadsheet runs. fp8lab
// passes every such string through Text before printing it, HTML before
// writing it into a page (HTMLAttr into an attribute that must keep the
// exact value), and CSVCell before writing it into a CSV cell. JSON output
// keeps the text as it is: encoding/json escapes what JSON needs.
package safetext

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// Text returns s with each character that can act on a terminal or a
// page instead of showing written as a Go escape: the C0 controls (NUL to
// US, tab and newline included), DEL and the C1 controls as \xNN or
// \u00NN, the characters that reorder or hide text (bidirectional
// embeddings, overrides, isolates and marks, U+2028 and U+2029) as \uNNNN,
// and each byte of invalid UTF-8 as \xNN. Everything else, backslashes
// included, is kept. A string with nothing to escape is returned as is.
func Text(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || unsafe(r) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafe reports whether r acts instead of showing.
func unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, 0x80 <= r && r <= 0x9f:
		return true // C0, DEL, C1
	case r == 0x061c, r == 0x200e, r == 0x200f, 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true // bidirectional marks, embeddings, overrides, isolates
	case r == 0x2028, r == 0x2029:
		return true // line and paragraph separators
	}
	return false
}

// CSVCell returns Text(s) made inert for a spreadsheet by OWASP's rule
// against CSV (formula) injection: a cell starting with '=', '+', '-' or
// '@' gets a leading single quote, which spreadsheets read as "this is
// text" (tab and carriage return, the rule's other starters, are already
// escaped by Text). Apply it to cells of text, not to numbers written by
// the program: "-1.5" is a number, not a formula.
func CSVCell(s string) string {
	s = Text(s)
	if s != "" && strings.IndexByte("=+-@", s[0]) >= 0 {
		return "'" + s
	}
	return s
}

// HTML returns Text(s) escaped for HTML text: no markup and no control
// byte reaches the page.
func HTML(s string) string { return html.EscapeString(Text(s)) }

// HTMLAttr escapes s for an HTML attribute value whose exact text a
// script reads back (a tensor's name, to ask for that tensor): markup is
// escaped as html.EscapeString does, and each character Text would escape
// is written as a numeric character reference (&#x1b;), which the browser
// decodes to the same character, so that no control byte is in the page.
// (HTML decodes a reference to NUL as U+FFFD and those to most of
// 0x80–0x9F as windows-1252 characters, so names holding them do not come
// back exactly; invalid UTF-8 is written as U+FFFD.)
func HTMLAttr(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unsafe(r):
			fmt.Fprintf(&b, "&#x%x;", r)
		case strings.ContainsRune(`&<>"'`, r):
			b.WriteString(html.EscapeString(string(r)))
		default:
			b.WriteRune(r) // RuneError for invalid UTF-8
		}
	}
	return b.String()
}
