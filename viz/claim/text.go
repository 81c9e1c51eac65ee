package claim

import (
	"fmt"
	"strings"
)

// Phrase is text with the claims it makes, in order.
type Phrase struct {
	text      string
	claims    []Claim
	undecided bool
}

// Sprintf formats like fmt.Sprintf and keeps the claims of its arguments:
// a Claim argument is worded by its String method, a Phrase argument by
// its text, and both add their claims to the result. A phrase with an
// undecided claim is itself undecided.
func Sprintf(format string, args ...any) Phrase {
	var p Phrase
	args = append([]any(nil), args...) // the caller's slice stays as it was
	for i, a := range args {
		switch v := a.(type) {
		case Phrase:
			p.claims = append(p.claims, v.claims...)
			p.undecided = p.undecided || v.undecided
			args[i] = v.text
		case Claim:
			p.claims = append(p.claims, v)
			p.undecided = p.undecided || !v.Decided()
		}
	}
	p.text = fmt.Sprintf(format, args...)
	return p
}

// Lit is text that makes no claim.
func Lit(s string) Phrase { return Phrase{text: s} }

// String returns the text.
func (p Phrase) String() string { return p.text }

// Claims returns the claims the text makes, in order.
func (p Phrase) Claims() []Claim { return append([]Claim(nil), p.claims...) }

// Decided reports whether every claim of the phrase is decided.
func (p Phrase) Decided() bool { return !p.undecided }

// Empty reports whether the phrase has no text.
func (p Phrase) Empty() bool { return p.text == "" }

// Join concatenates phrases with sep between them, skipping empty ones.
func Join(ps []Phrase, sep string) Phrase {
	var out Phrase
	var texts []string
	for _, p := range ps {
		if p.Empty() {
			continue
		}
		texts = append(texts, p.text)
		out.claims = append(out.claims, p.claims...)
		out.undecided = out.undecided || p.undecided
	}
	out.text = strings.Join(texts, sep)
	return out
}

// JoinAnd writes a list as "a", "a and b" or "a, b and c".
func JoinAnd(ps []Phrase) Phrase {
	var kept []Phrase
	for _, p := range ps {
		if !p.Empty() {
			kept = append(kept, p)
		}
	}
	if len(kept) < 3 {
		return Join(kept, " and ")
	}
	head := Join(kept[:len(kept)-1], ", ")
	return Sprintf("%s and %s", head, kept[len(kept)-1])
}

// Explanation is the text beside a picture: paragraphs, the first of them
// the takeaway (one sentence that a projected page shows on its first
// screen), with the claims they make.
type Explanation struct {
	paras []Phrase
}

// Add appends a paragraph, unless it is empty or holds an undecided
// claim: what cannot be decided is not said.
func (e *Explanation) Add(p Phrase) {
	if e == nil || p.Empty() || !p.Decided() {
		return
	}
	e.paras = append(e.paras, p)
}

// Addf appends Sprintf(format, args...) as a paragraph, as Add does.
func (e *Explanation) Addf(format string, args ...any) { e.Add(Sprintf(format, args...)) }

// Paragraphs returns the text of each paragraph.
func (e Explanation) Paragraphs() []string {
	out := make([]string, len(e.paras))
	for i, p := range e.paras {
		out[i] = p.text
	}
	return out
}

// Phrases returns the paragraphs with their claims.
func (e Explanation) Phrases() []Phrase { return append([]Phrase(nil), e.paras...) }

// Claims returns every claim of every paragraph, in order.
func (e Explanation) Claims() []Claim {
	var out []Claim
	for _, p := range e.paras {
		out = append(out, p.claims...)
	}
	return out
}

// Takeaway returns the first paragraph's text, "" when there is none.
func (e Explanation) Takeaway() string {
	if len(e.paras) == 0 {
		return ""
	}
	return e.paras[0].text
}
