package apitest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// recorder is a testing.TB that keeps what would fail the test.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...); panic("fatal") }

// Sample is a type whose methods break the rule in each way Check sees.
type Sample struct{ n []int }

func (s *Sample) First() int        { return s.n[0] } // nil receiver, empty slice
func (s *Sample) Safe() int         { return 0 }
func (s Sample) Value(i int) int    { return s.n[i] } // out of range on the zero value
func (s *Sample) Block(ch chan int) { <-ch }          // never returns

func TestCheckFindsWhatBreaksTheRule(t *testing.T) {
	defer func(d time.Duration) { callTimeout = d }(callTimeout)
	callTimeout = 50 * time.Millisecond
	r := &recorder{TB: t}
	Check(r, API{Types: []any{(*Sample)(nil)}, Skip: map[string]string{"Check": "the helper itself"}})
	all := strings.Join(r.errors, "\n")
	assert.Contains(t, all, "Sample.First on a nil receiver with zero arguments panics")
	assert.Contains(t, all, "Sample.First on a zero receiver with zero arguments panics: runtime error: index out of range")
	assert.Contains(t, all, "Sample.Value on a zero receiver with one-element arguments panics")
	assert.NotContains(t, all, "Sample.Value on a nil receiver", "a value method is not called on a nil pointer")
	assert.Contains(t, all, "Sample.Block on a zero receiver with zero arguments has not returned")
	assert.NotContains(t, all, "Sample.Safe")

	r = &recorder{TB: t}
	Check(r, API{})
	assert.Equal(t, []string{"the API test does not call Check: add them to Types or Funcs (or to Skip, with the reason)"}, r.errors)
}
