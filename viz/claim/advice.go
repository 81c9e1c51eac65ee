package claim

import (
	"math"
	"strconv"
)

// Advice says which way to move a control: from its value now (From) to
// the value advised (To), and which fact that improves (Goal rises when
// Better is +1, falls when it is -1). Its words are Raise when To is above
// From and Lower when below; advice to stay where one is has no words. A
// test checks advice by moving the control to To and recomputing Goal.
type Advice struct {
	Key          string
	Param        string
	From, To     float64
	Goal         string
	Better       int
	Raise, Lower string
}

// ID implements Claim.
func (a Advice) ID() string { return a.Key }

// Kind implements Claim.
func (Advice) Kind() Kind { return KindAdvice }

// Decided implements Claim: the control must move, and Better must say
// which way is better.
func (a Advice) Decided() bool {
	return !math.IsNaN(a.From) && !math.IsNaN(a.To) && a.From != a.To && (a.Better == 1 || a.Better == -1)
}

// Dir is +1 when the advice raises the control, -1 when it lowers it and
// 0 when it is undecided.
func (a Advice) Dir() int {
	switch {
	case !a.Decided():
		return 0
	case a.To > a.From:
		return 1
	}
	return -1
}

// Target is To as a control's value.
func (a Advice) Target() string { return strconv.FormatFloat(a.To, 'g', -1, 64) }

// String implements Claim.
func (a Advice) String() string {
	switch a.Dir() {
	case 1:
		return a.Raise
	case -1:
		return a.Lower
	}
	return ""
}
