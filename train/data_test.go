package train

import (
	"bytes"
	"sync"
	"testing"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	corpusOnce sync.Once
	corpus     *Corpus
	corpusErr  error
)

// testCorpus is the first 2 MiB of the Go source corpus, read once.
func testCorpus(t *testing.T) *Corpus {
	t.Helper()
	corpusOnce.Do(func() { corpus, corpusErr = GoSourceCorpus(cmdline.GoRoot(), 2<<20) })
	require.NoError(t, corpusErr)
	return corpus
}

func TestGoSourceCorpus(t *testing.T) {
	c := testCorpus(t)
	total := len(c.Train) + len(c.Val)
	assert.GreaterOrEqual(t, total, 2<<20)
	assert.Less(t, total, 2<<20+2)
	// Roughly a tenth of the files (and bytes) are held out.
	frac := float64(len(c.Val)) / float64(total)
	assert.Greater(t, frac, 0.02)
	assert.Less(t, frac, 0.25)
	assert.True(t, bytes.HasPrefix(c.Train, []byte("// Copyright")) || bytes.Contains(c.Train[:200], []byte("package ")))

	// A smaller cap gives a prefix of the same split.
	small, err := GoSourceCorpus(cmdline.GoRoot(), 1<<20)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(c.Train, small.Train[:len(small.Train)-1]))
	assert.True(t, bytes.HasPrefix(c.Val, small.Val[:len(small.Val)-1]))
}

func TestBatchesAreDeterministic(t *testing.T) {
	c := testCorpus(t)
	B, T := 4, 16
	tok1, tgt1 := make([]int, B*T), make([]int, B*T)
	tok2, tgt2 := make([]int, B*T), make([]int, B*T)
	c.trainBatch(tok1, tgt1, B, T, 1, 5)
	c.trainBatch(tok2, tgt2, B, T, 1, 5)
	assert.Equal(t, tok1, tok2)
	assert.Equal(t, tgt1, tgt2)
	// Targets are the next bytes.
	for b := 0; b < B; b++ {
		assert.Equal(t, tok1[b*T+1:(b+1)*T], tgt1[b*T:(b+1)*T-1])
	}
	c.trainBatch(tok2, tgt2, B, T, 1, 6)
	assert.NotEqual(t, tok1, tok2, "another step, another batch")
	c.trainBatch(tok2, tgt2, B, T, 2, 5)
	assert.NotEqual(t, tok1, tok2, "another seed, another order")

	c.valBatch(tok1, tgt1, B, T, 1, 3)
	c.valBatch(tok2, tgt2, B, T, 1, 3)
	assert.Equal(t, tok1, tok2)
}

func TestTextCorpus(t *testing.T) {
	_, err := TextCorpus([]byte("short"), "x")
	require.Error(t, err)
	text := bytes.Repeat([]byte("0123456789"), 200)
	c, err := TextCorpus(text, "digits")
	require.NoError(t, err)
	assert.Len(t, c.Val, 200)
	assert.Len(t, c.Train, 1800)
	require.Error(t, c.check(5000))
}
