package safetext

import (
	"html"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"layers.0.weight":                        "layers.0.weight",
		"model.layers.0.self_attn.q_proj.weight": "model.layers.0.self_attn.q_proj.weight",
		"é→ünïcödé 中文 C:\\dir":                   "é→ünïcödé 中文 C:\\dir",
		"\x1b]0;pwned\a\x1b[2J":                  `\x1b]0;pwned\x07\x1b[2J`,
		"a\x00b\tc\nd\re\x7f":                    `a\x00b\x09c\x0ad\x0de\x7f`,
		"\u009b31m":                              `\u009b31m`,
		"evil\u202egnp.exe":                      `evil\u202egnp.exe`,
		"\u2066x\u2069\u200f\u061c":              `\u2066x\u2069\u200f\u061c`,
		"line\u2028sep":                          `line\u2028sep`,
		"bad\xffutf8\xc3":                        `bad\xffutf8\xc3`,
		"":                                       "",
	} {
		assert.Equal(t, want, Text(in), "%q", in)
	}
	// Every code point below 0xA0 is either shown as itself or escaped.
	for r := rune(0); r < 0xa0; r++ {
		out := Text(string(r))
		if r >= 0x20 && r != 0x7f && r < 0x80 {
			assert.Equal(t, string(r), out)
		} else {
			assert.Equal(t, byte('\\'), out[0], "%U", r)
		}
	}
	s := "plain"
	assert.Equal(t, s, Text(s))
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = Text(s) }), "nothing to escape, nothing allocated")
}

func TestCSVCell(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")",
		"+1+cmd|' /C calc'!A0":     "'+1+cmd|' /C calc'!A0",
		"-2+3":                     "'-2+3",
		"@SUM(A1:A9)":              "'@SUM(A1:A9)",
		"\t=1":                     `\x09=1`,
		"\r=1":                     `\x0d=1`,
		"layers.0.weight":          "layers.0.weight",
		"a=b":                      "a=b",
		"":                         "",
	} {
		assert.Equal(t, want, CSVCell(in), "%q", in)
	}
}

func TestHTML(t *testing.T) {
	assert.Equal(t, `&lt;b&gt;\x1b[2J&amp;&#34;`, HTML("<b>\x1b[2J&\""))
	for in, want := range map[string]string{
		"layers.0.weight":        "layers.0.weight",
		"\x1b]0;x\a<b>&#x41;\"'": "&#x1b;]0;x&#x7;&lt;b&gt;&amp;#x41;&#34;&#39;",
		"a\u202eb\x00c\xff":      "a&#x202e;b&#x0;c\ufffd",
	} {
		got := HTMLAttr(in)
		assert.Equal(t, want, got, "%q", in)
		for _, c := range []byte(got) {
			assert.False(t, c < 0x20 || c == 0x7f, "control byte in %q", got)
		}
		if !strings.ContainsAny(in, "\x00\xff") {
			assert.Equal(t, in, html.UnescapeString(got), "the attribute reads back")
		}
	}
}
