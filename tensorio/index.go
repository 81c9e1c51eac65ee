package tensorio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fp8lab/fp8lab/scaling"
)

// maxIndexBytes bounds a shard index (real ones are well under 1 MB).
const maxIndexBytes = 64 << 20

// shardIndex is model.safetensors.index.json: which shard holds each tensor.
type shardIndex struct {
	WeightMap map[string]string `json:"weight_map"`
}

// OpenIndex opens the shards a safetensors shard index names
// (model.safetensors.index.json, whose "weight_map" maps each tensor to its
// file) through open, which gives a shard's bytes and size by the file name
// written in the index; name prefixes errors. Every tensor of the weight
// map must be in the shard it names, and no tensor may be in two shards.
// A shard name that is absolute or climbs out of the index's folder ("..")
// is refused. The archives come back in shard-name order.
func OpenIndex(index []byte, name string, open func(shard string) (io.ReaderAt, int64, error), lim Limits) ([]*Archive, error) {
	fail := func(format string, args ...any) ([]*Archive, error) {
		return nil, fmt.Errorf("%s: %w: shard index: %s", name, scaling.ErrParse, fmt.Sprintf(format, args...))
	}
	var idx shardIndex
	dec := json.NewDecoder(bytes.NewReader(index))
	if err := dec.Decode(&idx); err != nil {
		return fail("not JSON: %v", err)
	}
	if len(idx.WeightMap) == 0 {
		return fail("no weight_map")
	}
	byShard := map[string][]string{}
	for t, f := range idx.WeightMap {
		if f == "" || path.IsAbs(f) || filepath.IsAbs(f) || strings.Contains("/"+filepath.ToSlash(f)+"/", "/../") {
			return fail("tensor %q: shard %q is not a file beside the index", t, f)
		}
		byShard[f] = append(byShard[f], t)
	}
	shards := make([]string, 0, len(byShard))
	for f := range byShard {
		shards = append(shards, f)
	}
	sort.Strings(shards)
	var out []*Archive
	where := map[string]string{}
	for _, f := range shards {
		r, size, err := open(f)
		if err != nil {
			return nil, fmt.Errorf("%s: shard %s: %w", name, f, err)
		}
		a, err := Open(r, size, f, lim)
		if err != nil {
			return nil, err
		}
		for _, in := range a.Tensors {
			if prev, ok := where[in.Name]; ok {
				return nil, fmt.Errorf("%s: %w: tensor %q is in both %s and %s", name, scaling.ErrParse, in.Name, prev, f)
			}
			where[in.Name] = f
		}
		out = append(out, a)
	}
	for t, f := range idx.WeightMap {
		if where[t] != f {
			return fail("tensor %q is not in %s, the shard the index names", t, f)
		}
	}
	return out, nil
}

// OpenFile opens the tensor file at path, or, for a shard index, every
// shard it names (paths relative to the index's folder). The files stay
// open until close is called. A path that is not a regular file is an error
// wrapping ErrNotFile.
func OpenFile(p string, lim Limits) (archives []*Archive, close func() error, err error) {
	var files []*os.File
	close = func() error {
		var first error
		for _, f := range files {
			if err := f.Close(); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	openOne := func(name string) (*os.File, int64, error) {
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, err
		}
		st, err := f.Stat()
		if err == nil && (st.IsDir() || !st.Mode().IsRegular()) {
			err = fmt.Errorf("%s is %s, not a regular file: %w", name, fileKind(st.Mode()), ErrNotFile)
			if st.IsDir() {
				err = fmt.Errorf("%s is a directory, not a tensor file: %w", name, ErrNotFile)
			}
		}
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		files = append(files, f)
		return f, st.Size(), nil
	}
	f, size, err := openOne(p)
	if err != nil {
		return nil, close, err
	}
	head := make([]byte, 16)
	n, _ := f.ReadAt(head, 0)
	if Sniff(head[:n]) == Index {
		if size > maxIndexBytes {
			return nil, close, fmt.Errorf("%s: %w: shard index of %d bytes", p, ErrTooLarge, size)
		}
		data := make([]byte, size)
		if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
			return nil, close, err
		}
		dir := filepath.Dir(p)
		as, err := OpenIndex(data, p, func(shard string) (io.ReaderAt, int64, error) {
			return openOne(filepath.Join(dir, filepath.FromSlash(shard)))
		}, lim)
		return as, close, err
	}
	a, err := Open(f, size, p, lim)
	if err != nil {
		return nil, close, err
	}
	return []*Archive{a}, close, nil
}
