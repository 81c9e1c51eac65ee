package tensorio

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fp8lab/fp8lab/scaling"
)

// ErrNoTensor reports a tensor name that a file does not hold, or a file of
// several tensors read where one is wanted without naming it.
var ErrNoTensor = errors.New("tensorio: no such tensor")

// listedNames is how many tensor names an ErrNoTensor error lists.
const listedNames = 20

// Select reads one tensor of the archives (the shards of one checkpoint,
// or a single file): the one named name, or, when name is empty, the only
// tensor, so that a .npy or CSV file needs no name. The other tensors are
// not read; nil archives are skipped. A missing name, or an empty name where there are several
// tensors, is an error wrapping ErrNoTensor that lists the tensors' names.
func Select(archives []*Archive, name string) (*scaling.Tensor, error) {
	var names []string
	var only *Archive
	oi := -1
	for _, a := range archives {
		if a == nil {
			continue
		}
		for i, in := range a.Tensors {
			if name != "" && in.Name == name {
				return a.Tensor(i)
			}
			names = append(names, in.Name)
			only, oi = a, i
		}
	}
	file := ""
	if len(archives) > 0 && archives[0] != nil && archives[0].Name != "" {
		file = archives[0].Name + ": "
	}
	switch {
	case name == "" && len(names) == 1:
		return only.Tensor(oi)
	case len(names) == 0:
		return nil, fmt.Errorf("%s%w: the file holds no tensor", file, ErrNoTensor)
	case name == "":
		return nil, fmt.Errorf("%s%w: the file holds %d tensors; name one (%s)", file, ErrNoTensor, len(names), listNames(names))
	}
	return nil, fmt.Errorf("%s%w %q; the file holds %s", file, ErrNoTensor, name, listNames(names))
}

// listNames quotes up to listedNames names.
func listNames(names []string) string {
	var b strings.Builder
	for k, n := range names {
		if k == listedNames {
			fmt.Fprintf(&b, ", … and %d more", len(names)-k)
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", n)
	}
	return b.String()
}
