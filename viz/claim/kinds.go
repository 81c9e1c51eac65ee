package claim

import (
	"math"
	"strconv"
)

// Compare is A against B at the precision both are shown with: Above when
// Show(A) and Show(B) differ and A > B, Below when they differ and A < B,
// Same when they read the same. A NaN leaves it undecided.
type Compare struct {
	Key                string
	A, B               float64
	Show               Show // how the text shows A and B; nil: exactly
	Above, Below, Same string
}

// Order is +1, -1 or 0 for A above, below or the same as B as shown; it is
// 0 when a NaN leaves the claim undecided.
func (c Compare) Order() int { return Order(c.A, c.B, c.Show) }

// Order compares a with b as show writes them (exactly when show is nil):
// +1 above, -1 below, 0 the same or undecided (a NaN).
func Order(a, b float64, show Show) int {
	switch {
	case math.IsNaN(a) || math.IsNaN(b):
		return 0
	case show.or()(a) == show.or()(b):
		return 0
	case a > b:
		return 1
	}
	return -1
}

// ID implements Claim.
func (c Compare) ID() string { return c.Key }

// Kind implements Claim.
func (Compare) Kind() Kind { return KindCompare }

// Decided implements Claim.
func (c Compare) Decided() bool { return !math.IsNaN(c.A) && !math.IsNaN(c.B) }

// String implements Claim.
func (c Compare) String() string {
	if !c.Decided() {
		return ""
	}
	switch c.Order() {
	case 1:
		return c.Above
	case -1:
		return c.Below
	}
	return c.Same
}

// Count is how many of something there are: "no value", "1 value",
// "3 values". None is the words for zero ("0 " + Many when empty); One and
// Many are the noun, or a noun with its verb ("step overflows", "steps
// overflow"), after the number.
type Count struct {
	Key             string
	N               int
	One, Many, None string
}

// ID implements Claim.
func (c Count) ID() string { return c.Key }

// Kind implements Claim.
func (Count) Kind() Kind { return KindCount }

// Decided implements Claim.
func (Count) Decided() bool { return true }

// String implements Claim.
func (c Count) String() string {
	switch {
	case c.N == 0 && c.None != "":
		return c.None
	case c.N == 1:
		return "1 " + c.One
	}
	return strconv.Itoa(c.N) + " " + c.Many
}

// Share is what fraction of a whole something is, shown by Show (a
// percentage, say); None is the words for exactly zero.
type Share struct {
	Key      string
	Fraction float64
	Show     Show
	None     string
}

// ID implements Claim.
func (s Share) ID() string { return s.Key }

// Kind implements Claim.
func (Share) Kind() Kind { return KindShare }

// Decided implements Claim.
func (s Share) Decided() bool { return !math.IsNaN(s.Fraction) }

// String implements Claim.
func (s Share) String() string {
	switch {
	case !s.Decided():
		return ""
	case s.Fraction == 0 && s.None != "":
		return s.None
	}
	return s.Show.or()(s.Fraction)
}

// Has is whether something is there: Yes when Present, else No.
type Has struct {
	Key     string
	Present bool
	Yes, No string
}

// ID implements Claim.
func (h Has) ID() string { return h.Key }

// Kind implements Claim.
func (Has) Kind() Kind { return KindPresence }

// Decided implements Claim.
func (Has) Decided() bool { return true }

// String implements Claim.
func (h Has) String() string {
	if h.Present {
		return h.Yes
	}
	return h.No
}

// Is names the class something belongs to: Value is the class (as a test's
// second path names it), Words how the text says it ("a subnormal value").
type Is struct {
	Key   string
	Value string
	Words string
}

// ID implements Claim.
func (i Is) ID() string { return i.Key }

// Kind implements Claim.
func (Is) Kind() Kind { return KindIs }

// Decided implements Claim.
func (i Is) Decided() bool { return i.Value != "" }

// String implements Claim.
func (i Is) String() string {
	if i.Words == "" {
		return i.Value
	}
	return i.Words
}

// Quantity is a number the text quotes, as Show writes it.
type Quantity struct {
	Key  string
	V    float64
	Show Show
}

// ID implements Claim.
func (q Quantity) ID() string { return q.Key }

// Kind implements Claim.
func (Quantity) Kind() Kind { return KindQuantity }

// Decided implements Claim.
func (q Quantity) Decided() bool { return !math.IsNaN(q.V) }

// String implements Claim.
func (q Quantity) String() string {
	if !q.Decided() {
		return ""
	}
	return q.Show.or()(q.V)
}

// Reference points at a part of the picture: Label is a text the picture
// draws there (a chart's title, say), Words how the sentence names it.
type Reference struct {
	Key   string
	Label string
	Words string
}

// ID implements Claim.
func (r Reference) ID() string { return r.Key }

// Kind implements Claim.
func (Reference) Kind() Kind { return KindReference }

// Decided implements Claim.
func (r Reference) Decided() bool { return r.Label != "" }

// String implements Claim.
func (r Reference) String() string { return r.Words }
