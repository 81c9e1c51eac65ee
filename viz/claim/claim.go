// Package claim words the judgements that fp8lab's explanations make.
//
// Every judgement beside a picture (one level above another, how many
// values were lost, whether a format has subnormals, which way to move a
// control) is a typed Claim holding the data it was decided from. Its words
// follow from that data and never the other way round, so a test can
// recompute the data by a second path and check each claim, whatever the
// controls are set to. A claim that cannot be decided (a comparison with a
// NaN, say) has no words; a paragraph that holds one is not said.
//
// Text is built with Sprintf, whose Claim and Phrase arguments keep their
// claims, into an Explanation of paragraphs.
package claim

import (
	"fmt"
	"strconv"
)

// Kind is the sort of judgement a claim makes.
type Kind uint8

// The kinds of claims.
const (
	// KindCompare is one number against another: above, below or the same
	// at the precision both are shown with.
	KindCompare Kind = iota
	// KindCount is how many of something there are.
	KindCount
	// KindShare is what fraction of a whole something is.
	KindShare
	// KindPresence is whether something is there.
	KindPresence
	// KindIs names the class or category something belongs to.
	KindIs
	// KindProperty is a property of a number format.
	KindProperty
	// KindAdvice says which way to move a control, toward which value, and
	// what that improves.
	KindAdvice
	// KindQuantity is a number the text quotes.
	KindQuantity
	// KindReference points at a part of the picture.
	KindReference
)

var kindNames = [...]string{"compare", "count", "share", "presence", "is", "property", "advice", "quantity", "reference"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Kinds lists every kind, in order.
func Kinds() []Kind {
	out := make([]Kind, len(kindNames))
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// Claim is one judgement with the data it was decided from. Its String
// method returns its words, so that a claim can stand as an argument of
// Sprintf.
type Claim interface {
	fmt.Stringer
	// ID names what the claim is about, stable across settings (e.g.
	// "rotation.sqnr"), so that a test can look up its second path.
	ID() string
	// Kind is the sort of judgement.
	Kind() Kind
	// Decided reports whether the data decide the claim; an undecided claim
	// has no words.
	Decided() bool
}

// Show writes a number as the text shows it.
type Show func(float64) string

// Plain shows a number with the fewest digits that read back exactly.
func Plain(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// show returns s, or Plain when s is nil.
func (s Show) or() Show {
	if s == nil {
		return Plain
	}
	return s
}
