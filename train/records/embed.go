package records

import (
	"bytes"
	_ "embed"
	"sync"
)

// referenceRuns is the reference configuration's recipe comparison, as
// `go tool task training-doc CONFIG=reference` wrote it.
//
//go:embed reference-runs.json.gz
var referenceRuns []byte

var reference struct {
	once sync.Once
	rec  *Record
	err  error
}

// Reference returns the shipped runs of the reference configuration (the
// recipe comparison of docs/training-reference.md), decoded once. The
// record is shared: callers must not change it.
func Reference() (*Record, error) {
	reference.once.Do(func() {
		reference.rec, reference.err = Read(bytes.NewReader(referenceRuns))
	})
	return reference.rec, reference.err
}
