package train

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/fp8lab/fp8lab/tensorio"
)

// The dtypes a checkpoint is written in: float32 (exact) or BF16 (each
// weight rounded to nearest, ties to even; exact for the recipes that keep
// their master weights in BF16).
const (
	CheckpointF32  = "F32"
	CheckpointBF16 = "BF16"
)

// SaveCheckpoint writes the model's weights to w as a safetensors file
// (tensorio.WriteSafetensors), one tensor per parameter in the model's
// fixed order, named as llm.c-style GPT-2 parameters are ("wte", "wpe",
// "h0.qkv.w", …, "lnf.b", and "head.w" when the head is not tied):
// matrices (out, in), vectors 1-D. dtype is CheckpointF32 or
// CheckpointBF16. The header's metadata records the format, the
// configuration, the recipe and the step. It holds the weights only, not
// the optimizer's moments: a run resumed from it restarts AdamW's
// averages (see LoadCheckpoint).
func (t *Trainer) SaveCheckpoint(w io.Writer, dtype string) error {
	if err := t.ready(); err != nil {
		return err
	}
	var width int
	switch dtype {
	case CheckpointF32:
		width = 4
	case CheckpointBF16:
		width = 2
	default:
		return fmt.Errorf("train: checkpoint dtype %q (known: %s, %s)", dtype, CheckpointF32, CheckpointBF16)
	}
	m := t.model
	raws := make([]tensorio.Raw, 0, len(m.specs))
	off := 0
	for _, s := range m.specs {
		n := s.Rows * s.Cols
		data := make([]byte, width*n)
		for k, x := range m.params[off : off+n] {
			if width == 4 {
				binary.LittleEndian.PutUint32(data[4*k:], math.Float32bits(x))
			} else {
				binary.LittleEndian.PutUint16(data[2*k:], bf16Bits(x))
			}
		}
		shape := []int64{int64(s.Rows), int64(s.Cols)}
		if !s.Matrix {
			shape = []int64{int64(s.Cols)}
		}
		raws = append(raws, tensorio.Raw{Name: s.Name, DType: dtype, Shape: shape, Data: data})
		off += n
	}
	cfg, err := json.Marshal(t.cfg)
	if err != nil {
		return err
	}
	meta := map[string]string{
		"format": "fp8lab-train", "config": string(cfg), "recipe": t.recipe.Name,
		"step": strconv.Itoa(t.step), "seed": strconv.FormatUint(t.seed, 10),
	}
	return tensorio.WriteSafetensors(w, raws, meta)
}

// bf16Bits is the BF16 code of x rounded to nearest, ties to even (NaN
// stays a quiet NaN of x's sign).
func bf16Bits(x float32) uint16 {
	if x != x {
		return uint16(math.Float32bits(x)>>16) | 0x7fc0
	}
	return uint16(math.Float32bits(bf16Nearest(x)) >> 16)
}

// LoadCheckpoint replaces the model's weights with those of a checkpoint
// opened with tensorio.Open (or OpenFile), as SaveCheckpoint writes it, in
// any dtype tensorio decodes: every parameter must be there under its name
// with its shape, and nothing else. The optimizer's state and the step
// count are left as they are. On error the weights may be partly replaced.
func (t *Trainer) LoadCheckpoint(a *tensorio.Archive) error {
	if err := t.ready(); err != nil {
		return err
	}
	if a == nil {
		return errors.New("train: no checkpoint to load")
	}
	m := t.model
	byName := make(map[string]int, len(a.Tensors))
	for i, in := range a.Tensors {
		byName[in.Name] = i
	}
	off := 0
	for _, s := range m.specs {
		n := s.Rows * s.Cols
		i, ok := byName[s.Name]
		if !ok {
			return fmt.Errorf("train: checkpoint %s has no tensor %q", a.Name, s.Name)
		}
		delete(byName, s.Name)
		in := a.Tensors[i]
		if rows, cols := in.Matrix(); rows != int64(s.Rows) || cols != int64(s.Cols) {
			return fmt.Errorf("train: checkpoint %s: tensor %q has shape %v, the model's is %d×%d", a.Name, s.Name, in.Shape, s.Rows, s.Cols)
		}
		x, err := a.TensorInto(i, m.params[off:off+n:off+n])
		if err != nil {
			return fmt.Errorf("train: %w", err)
		}
		copy(m.params[off:off+n], x.Data) // a no-op when decoded in place
		off += n
	}
	for name := range byName {
		return fmt.Errorf("train: checkpoint %s has a tensor %q the model does not", a.Name, name)
	}
	return nil
}
