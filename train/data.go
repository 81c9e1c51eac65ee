package train

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/fp8lab/fp8lab/internal/infile"
)

// Corpus is the training text as bytes, split once into training and
// validation parts.
type Corpus struct {
	Train, Val []byte
	// Source says where the text came from, for the run's record.
	Source string
}

// DefaultCorpusBytes caps the Go-source corpus: the first 8 MiB of .go files
// in sorted path order. That is ~65k steps of the reference configuration,
// far more than any run here takes, and reads in well under a second.
const DefaultCorpusBytes = 8 << 20

// GoSourceCorpus reads the .go files under goroot/src (a program finds the
// distribution with cmdline.GoRoot) (skipping testdata
// directories) in sorted path order until maxBytes (DefaultCorpusBytes if 0)
// are read. A file goes to validation when the FNV-1a hash of its path
// relative to src is 0 mod 10 (about 10% of files), so the split is fixed,
// does not depend on the cap, and no file is in both parts. Files are
// joined with a newline.
func GoSourceCorpus(goroot string, maxBytes int) (*Corpus, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultCorpusBytes
	}
	src := filepath.Join(goroot, "src")
	c := &Corpus{Source: fmt.Sprintf("Go source %s (*.go, sorted, first %d bytes, validation: fnv32a(path)%%10 == 0)", src, maxBytes)}
	errFull := errors.New("full")
	total := 0
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := infile.ReadFile(path, infile.SourceFile)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		h := fnv.New32a()
		h.Write([]byte(filepath.ToSlash(rel)))
		if len(data) > maxBytes-total {
			data = data[:maxBytes-total]
		}
		if h.Sum32()%10 == 0 {
			c.Val = append(append(c.Val, data...), '\n')
		} else {
			c.Train = append(append(c.Train, data...), '\n')
		}
		if total += len(data) + 1; total >= maxBytes {
			return errFull
		}
		return nil
	})
	if err != nil && err != errFull {
		return nil, fmt.Errorf("train: reading the Go source corpus: %w", err)
	}
	switch {
	case total == 0:
		return nil, fmt.Errorf("train: no Go source under %s", src)
	case len(c.Train) == 0 || len(c.Val) == 0:
		// About one file in ten goes to validation: a small cap may hold none.
		part := "validation"
		if len(c.Train) == 0 {
			part = "training"
		}
		return nil, fmt.Errorf("train: the first %d bytes of Go source under %s hold no %s file; read more bytes", maxBytes, src, part)
	}
	return c, nil
}

// TextCorpus uses any text: the last tenth is the validation part.
func TextCorpus(text []byte, source string) (*Corpus, error) {
	if len(text) < 1000 {
		return nil, fmt.Errorf("train: %s: %d bytes is too little text (want at least 1000)", source, len(text))
	}
	cut := len(text) - len(text)/10
	return &Corpus{Train: text[:cut], Val: text[cut:], Source: source}, nil
}

// ReadTextCorpus reads a text file as a corpus (see TextCorpus): a regular
// file of at most infile.Corpus.Max bytes (a device, a named pipe or a
// larger file is refused before it is read).
func ReadTextCorpus(path string) (*Corpus, error) {
	b, err := infile.ReadFile(path, infile.Corpus)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return TextCorpus(b, path)
}

// check reports a corpus too short for sequences of T+1 bytes.
func (c *Corpus) check(T int) error {
	if len(c.Train) <= T+1 || len(c.Val) <= T+1 {
		return fmt.Errorf("train: corpus parts of %d and %d bytes are too short for a context of %d", len(c.Train), len(c.Val), T)
	}
	return nil
}

// trainBatch fills tokens and targets (B,T) with B random windows of the
// training text: the offsets come from a PCG seeded with (seed, step), so a
// step's batch depends on nothing else: every recipe sees the same data in
// the same order.
func (c *Corpus) trainBatch(tokens, targets []int, B, T int, seed uint64, step int) {
	r := rand.New(rand.NewPCG(seed, 0x5eed0000_00000000|uint64(step)))
	for b := 0; b < B; b++ {
		off := r.IntN(len(c.Train) - T - 1)
		window(tokens[b*T:(b+1)*T], targets[b*T:(b+1)*T], c.Train[off:])
	}
}

// valBatch fills tokens and targets with batch k of n fixed validation
// batches: B·n windows spread evenly over the validation text, the same for
// every seed, so validation losses of different runs are comparable.
func (c *Corpus) valBatch(tokens, targets []int, B, T, k, n int) {
	span := len(c.Val) - T - 1
	for b := 0; b < B; b++ {
		i := k*B + b
		off := span * i / (n * B)
		window(tokens[b*T:(b+1)*T], targets[b*T:(b+1)*T], c.Val[off:])
	}
}

// window sets tokens to text[0:T] and targets to text[1:T+1].
func window(tokens, targets []int, text []byte) {
	for t := range tokens {
		tokens[t] = int(text[t])
		targets[t] = int(text[t+1])
	}
}
