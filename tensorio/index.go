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

	"github.com/fp8lab/fp8lab/internal/infile"
	"github.com/fp8lab/fp8lab/scaling"
)

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
// is refused, and so is a shard that is not a safetensors file (before it
// is read further, so that errors never quote it). The archives come back
// in shard-name order.
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
		// A shard is a safetensors file: anything else is refused before
		// it is parsed, so that no message quotes a file the user did not
		// name (the index might point at any file of its folder).
		head := make([]byte, 9)
		if n, _ := r.ReadAt(head, 0); Sniff(head[:n]) != Safetensors {
			return nil, fmt.Errorf("%s: %w: shard %s is not a safetensors file", name, scaling.ErrParse, f)
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
// shard it names (paths relative to the index's folder, which a shard may
// not leave, not even through a symbolic link: see internal/infile). The
// files stay open until close is called. A path that is not a regular
// file is an error wrapping ErrNotFile.
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
	f, size, err := infile.Open(p, infile.Tensor)
	if err != nil {
		return nil, close, err
	}
	files = append(files, f)
	head := make([]byte, 16)
	n, _ := f.ReadAt(head, 0)
	if Sniff(head[:n]) != Index {
		a, err := Open(f, size, p, lim)
		if err != nil {
			return nil, close, err
		}
		return []*Archive{a}, close, nil
	}
	if size > infile.ShardIndex.Max {
		return nil, close, fmt.Errorf("%s: %w: a shard index of %d bytes (the limit is %d)", p, ErrTooLarge, size, infile.ShardIndex.Max)
	}
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
		return nil, close, err
	}
	dir := filepath.Dir(p)
	as, err := OpenIndex(data, p, func(shard string) (io.ReaderAt, int64, error) {
		f, size, err := infile.OpenIn(dir, shard, infile.Tensor)
		if err != nil {
			return nil, 0, err
		}
		files = append(files, f)
		return f, size, nil
	}, lim)
	return as, close, err
}
