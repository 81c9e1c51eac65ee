package tensorio

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
)

// Raw is one tensor's encoded bytes, as WriteSafetensors writes them.
type Raw struct {
	Name  string
	DType string // a safetensors dtype name
	Shape []int64
	Data  []byte // little-endian, packed as described at DTypes
}

// WriteSafetensors writes tensors as a safetensors file, in the order
// given, with the header padded with spaces to a multiple of 8 bytes as
// the reference implementation pads it. The dtype and the data's length
// must agree with the shape.
func WriteSafetensors(w io.Writer, tensors []Raw, meta map[string]string) error {
	header := map[string]any{}
	if meta != nil {
		header["__metadata__"] = meta
	}
	var off int64
	for _, t := range tensors {
		bits, ok := dtypeBits[t.DType]
		if !ok {
			return fmt.Errorf("tensorio: unknown dtype %q", t.DType)
		}
		n := Info{Shape: t.Shape}.Len()
		if want := dtypeBytes(n, bits); want != int64(len(t.Data)) {
			return fmt.Errorf("tensorio: tensor %q: %s %v needs %d bytes, not %d", t.Name, t.DType, t.Shape, want, len(t.Data))
		}
		if _, dup := header[t.Name]; dup {
			return fmt.Errorf("tensorio: tensor %q twice", t.Name)
		}
		shape := t.Shape
		if shape == nil {
			shape = []int64{}
		}
		header[t.Name] = map[string]any{"dtype": t.DType, "shape": shape, "data_offsets": []int64{off, off + int64(len(t.Data))}}
		off += int64(len(t.Data))
	}
	h, err := json.Marshal(header)
	if err != nil {
		return err
	}
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	bw := bufio.NewWriter(w)
	binary.Write(bw, binary.LittleEndian, uint64(len(h)))
	bw.Write(h)
	for _, t := range tensors {
		bw.Write(t.Data)
	}
	return bw.Flush()
}
