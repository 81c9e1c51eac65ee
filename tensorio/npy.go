package tensorio

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// NumPy's .npy format (numpy.lib.format, versions 1.0, 2.0 and 3.0): the
// magic "\x93NUMPY", a version, a little-endian header length (2 bytes in
// 1.0, 4 in 2.0 and 3.0) and a Python dict literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }, then the raw
// array.

const (
	// maxNPYHeader bounds the header a reader accepts (numpy writes < 4 KiB).
	maxNPYHeader = 1 << 20
	// readChunk is how much array data is read at a time.
	readChunk = 1 << 20
)

// readNPY reads an .npy array of float32 ('<f4', '>f4'), float64 ('<f8',
// '>f8', rounded to float32), float16 ('<f2', '>f2'), bfloat16 (ml_dtypes'
// bfloat16, which numpy.save writes as the 2-byte void '<V2') or uint8
// ('|u1', as the float32 values 0..255), from a file of size bytes, as the
// matrix Info.Matrix describes: the last dimension the columns, the others
// folded into rows, a 1-D array one row and a 0-D one (a scalar) 1×1, as a
// 0-D safetensors tensor is read. Fortran (column-major) order is read for
// arrays of at most two dimensions. Anything else (other dtypes, empty
// arrays, a truncated file) gives an error wrapping scaling.ErrParse or
// scaling.ErrShape, a shape over the limit ErrTooLarge; the array is
// allocated only once the file is known to hold all of it.
func readNPY(r io.ReaderAt, size int64, lim Limits) (*scaling.Tensor, error) {
	br := bufio.NewReader(io.NewSectionReader(r, 0, size))
	h, offset, err := npyPrelude(br, size)
	if err != nil {
		return nil, err
	}
	if h.decode == nil {
		return nil, fmt.Errorf("%w: npy dtype %q is not float16, bfloat16, float32, float64 or uint8", scaling.ErrParse, h.descr)
	}
	if h.fortran && len(h.shape) > 2 {
		return nil, fmt.Errorf("%w: npy array of %d dimensions in Fortran order (C order is read at any rank, Fortran order up to 2)", scaling.ErrShape, len(h.shape))
	}
	for _, d := range h.shape {
		if d == 0 {
			return nil, fmt.Errorf("%w: npy shape %v is empty", scaling.ErrShape, h.shape)
		}
	}
	limit := lim.maxElements()
	n := 1
	for _, d := range h.shape {
		if n > limit/d {
			return nil, fmt.Errorf("%w: npy shape %v has more than %d elements", ErrTooLarge, h.shape, limit)
		}
		n *= d
	}
	rows, cols := 1, 1
	if len(h.shape) > 0 {
		cols = h.shape[len(h.shape)-1]
		rows = n / cols
	}
	if avail := (size - offset) / int64(h.size); avail < int64(n) {
		return nil, fmt.Errorf("%w: npy data ends after %d of %d values", scaling.ErrParse, max(avail, 0), n)
	}
	data := make([]float32, 0, n)
	buf := make([]byte, readChunk-readChunk%h.size)
	for len(data) < n {
		want := min((n-len(data))*h.size, len(buf))
		if _, err := io.ReadFull(br, buf[:want]); err != nil {
			return nil, fmt.Errorf("%w: npy data ends after %d of %d values: %v", scaling.ErrParse, len(data), n, err)
		}
		for p := 0; p < want; p += h.size {
			data = append(data, h.decode(buf[p:p+h.size]))
		}
	}
	t := &scaling.Tensor{Rows: rows, Cols: cols, Data: data}
	if h.fortran && rows > 1 && cols > 1 {
		// Column-major data: read as cols×rows, then transpose.
		ct := &scaling.Tensor{Rows: cols, Cols: rows, Data: data}
		return ct.Transpose()
	}
	return t, nil
}

// npyPrelude reads the magic, version and header dict of an .npy stream of
// size bytes, reading exactly up to the data, and returns the parsed header
// and the offset of the data.
func npyPrelude(br io.Reader, size int64) (npyHeader, int64, error) {
	var pre [8]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil {
		return npyHeader{}, 0, fmt.Errorf("%w: npy preamble: %v", scaling.ErrParse, err)
	}
	if string(pre[:6]) != npyMagic {
		return npyHeader{}, 0, fmt.Errorf("%w: not an .npy file (bad magic)", scaling.ErrParse)
	}
	var hlen int
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return npyHeader{}, 0, fmt.Errorf("%w: npy header length: %v", scaling.ErrParse, err)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return npyHeader{}, 0, fmt.Errorf("%w: npy header length: %v", scaling.ErrParse, err)
		}
		h := binary.LittleEndian.Uint32(b[:])
		if h > maxNPYHeader {
			return npyHeader{}, 0, fmt.Errorf("%w: npy header of %d bytes", scaling.ErrParse, h)
		}
		hlen = int(h)
	default:
		return npyHeader{}, 0, fmt.Errorf("%w: npy version %d.%d", scaling.ErrParse, pre[6], pre[7])
	}
	if int64(hlen) > size {
		return npyHeader{}, 0, fmt.Errorf("%w: npy header of %d bytes in a file of %d", scaling.ErrParse, hlen, size)
	}
	header := make([]byte, hlen)
	if _, err := io.ReadFull(br, header); err != nil {
		return npyHeader{}, 0, fmt.Errorf("%w: npy header: %v", scaling.ErrParse, err)
	}
	h, err := parseNPYHeader(string(header))
	if err != nil {
		return npyHeader{}, 0, err
	}
	offset := int64(len(pre)) + int64(hlen) + 2
	if pre[6] != 1 {
		offset += 2
	}
	return h, offset, nil
}

// npyHeader is the parsed header dict.
type npyHeader struct {
	descr string // the dtype as written, such as "<f4"
	size  int    // bytes per value (0 for a dtype not read)
	// decode reads one value; nil for a dtype this package does not read,
	// which an .npz lists and skips.
	decode  func([]byte) float32
	fortran bool
	shape   []int
}

// dtype names the header's dtype as safetensors does (F16, BF16, F32,
// F64), with " (big-endian)" for big-endian data, or as written for a
// dtype not read ("npy <i4").
func (h npyHeader) dtype() string {
	var name string
	switch {
	case h.decode == nil:
		return "npy " + h.descr
	case h.size == 1:
		return "U8" // one byte: no byte order
	case strings.Contains(h.descr, "V"):
		return "BF16" // no byte order in a void dtype; ml_dtypes writes it little-endian
	case h.size == 2:
		name = "F16"
	case h.size == 4:
		name = "F32"
	default:
		name = "F64"
	}
	if strings.HasPrefix(h.descr, ">") {
		name += bigEndian
	}
	return name
}

// bigEndian marks the dtype of big-endian .npy data.
const bigEndian = " (big-endian)"

// maxDimDigits is the longest dimension a shape may spell: 18 digits always
// fit an int64; any real dimension is far shorter.
const maxDimDigits = 18

// parseNPYHeader parses the Python dict literal of an .npy header.
func parseNPYHeader(s string) (npyHeader, error) {
	p := &dictParser{s: s}
	var h npyHeader
	seen := map[string]bool{}
	bad := func(format string, args ...any) (npyHeader, error) {
		return npyHeader{}, fmt.Errorf("%w: npy header: %s", scaling.ErrParse, fmt.Sprintf(format, args...))
	}
	if !p.eat('{') {
		return bad("no dict")
	}
	for !p.eat('}') {
		key, ok := p.str()
		if !ok || !p.eat(':') {
			return bad("malformed key at offset %d", p.i)
		}
		if seen[key] {
			return bad("key %q twice", key)
		}
		seen[key] = true
		switch key {
		case "descr":
			d, ok := p.str()
			if !ok {
				return bad("descr is not a string")
			}
			h.descr = d
			switch d {
			case "<f4", "=f4":
				h.size, h.decode = 4, func(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }
			case ">f4":
				h.size, h.decode = 4, func(b []byte) float32 { return math.Float32frombits(binary.BigEndian.Uint32(b)) }
			case "<f8", "=f8":
				h.size, h.decode = 8, func(b []byte) float32 { return float32(math.Float64frombits(binary.LittleEndian.Uint64(b))) }
			case ">f8":
				h.size, h.decode = 8, func(b []byte) float32 { return float32(math.Float64frombits(binary.BigEndian.Uint64(b))) }
			case "<f2", "=f2":
				h.size, h.decode = 2, func(b []byte) float32 { return fp8.FP16.Decode(binary.LittleEndian.Uint16(b)) }
			case ">f2":
				h.size, h.decode = 2, func(b []byte) float32 { return fp8.FP16.Decode(binary.BigEndian.Uint16(b)) }
			case "<V2", "|V2":
				// ml_dtypes' bfloat16 (JAX, TensorFlow): numpy.save has no
				// name for it and writes its 2 bytes as void.
				h.size, h.decode = 2, func(b []byte) float32 { return math.Float32frombits(uint32(binary.LittleEndian.Uint16(b)) << 16) }
			case "|u1", "<u1", "=u1", ">u1":
				h.size, h.decode = 1, func(b []byte) float32 { return float32(b[0]) }
			}
		case "fortran_order":
			switch {
			case p.word("True"):
				h.fortran = true
			case p.word("False"):
			default:
				return bad("fortran_order is not True or False")
			}
		case "shape":
			shape, err := p.tuple()
			if err != nil {
				return npyHeader{}, err
			}
			h.shape = shape
		default:
			return bad("unknown key %q", key)
		}
		if !p.eat(',') && !p.peek('}') {
			return bad("expected ',' or '}' at offset %d", p.i)
		}
	}
	if rest := strings.TrimSpace(s[p.i:]); rest != "" {
		return bad("text after the dict")
	}
	if !seen["descr"] || !seen["fortran_order"] || !seen["shape"] {
		return bad("descr, fortran_order and shape are all required")
	}
	return h, nil
}

// dictParser reads the small subset of Python literals .npy headers use.
type dictParser struct {
	s string
	i int
}

func (p *dictParser) skip() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *dictParser) peek(c byte) bool {
	p.skip()
	return p.i < len(p.s) && p.s[p.i] == c
}

func (p *dictParser) eat(c byte) bool {
	if p.peek(c) {
		p.i++
		return true
	}
	return false
}

func (p *dictParser) word(w string) bool {
	p.skip()
	if strings.HasPrefix(p.s[p.i:], w) {
		p.i += len(w)
		return true
	}
	return false
}

// str reads a quoted string without escapes.
func (p *dictParser) str() (string, bool) {
	p.skip()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", false
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", false
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, !strings.ContainsRune(v, '\\')
}

// tuple reads (a, b, ...) of non-negative integers, trailing comma allowed.
// A dimension too long to be real is an error wrapping ErrTooLarge.
func (p *dictParser) tuple() ([]int, error) {
	bad := errors.New("shape is not a tuple of integers")
	if !p.eat('(') {
		return nil, fmt.Errorf("%w: npy header: %v", scaling.ErrParse, bad)
	}
	var out []int
	for !p.eat(')') {
		p.skip()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == p.i || len(out) >= 32 {
			return nil, fmt.Errorf("%w: npy header: %v", scaling.ErrParse, bad)
		}
		digits := p.s[p.i:j]
		v, err := strconv.Atoi(digits)
		if err != nil || len(digits) > maxDimDigits {
			if len(digits) > 24 {
				digits = digits[:24] + "…"
			}
			return nil, fmt.Errorf("%w: npy shape dimension %s is too large", ErrTooLarge, digits)
		}
		out = append(out, v)
		p.i = j
		if !p.eat(',') && !p.peek(')') {
			return nil, fmt.Errorf("%w: npy header: %v", scaling.ErrParse, bad)
		}
	}
	return out, nil
}

// WriteNPY writes t as a version 1.0 .npy file of little-endian float32
// in C order, readable by numpy.load and by this package.
func WriteNPY(w io.Writer, t *scaling.Tensor) error {
	if err := t.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if err := writeNPYHeader(bw, "<f4", t.Rows, t.Cols); err != nil {
		return err
	}
	var b [4]byte
	for _, v := range t.Data {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
		bw.Write(b[:])
	}
	return bw.Flush()
}

// WriteNPYUint8 writes data as a rows×cols version 1.0 .npy file of uint8
// ('|u1') in C order: FP8 codes and E8M0 scale codes, readable by
// numpy.load (and by this package, which reads them as float32 0..255).
func WriteNPYUint8(w io.Writer, rows, cols int, data []uint8) error {
	if rows < 1 || cols < 1 || len(data) != rows*cols {
		return fmt.Errorf("%w: %d bytes for a %d×%d uint8 array", scaling.ErrShape, len(data), rows, cols)
	}
	bw := bufio.NewWriter(w)
	if err := writeNPYHeader(bw, "|u1", rows, cols); err != nil {
		return err
	}
	bw.Write(data)
	return bw.Flush()
}

// writeNPYHeader writes the magic, version 1.0 and the header dict of a
// rows×cols C-order array of dtype descr.
func writeNPYHeader(bw *bufio.Writer, descr string, rows, cols int) error {
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }", descr, rows, cols)
	// Pad with spaces so that the data starts at a multiple of 64 bytes.
	total := len(npyMagic) + 2 + 2 + len(dict) + 1
	pad := (64 - total%64) % 64
	header := dict + strings.Repeat(" ", pad) + "\n"
	if len(header) > math.MaxUint16 {
		return errors.New("tensorio: npy header too long")
	}
	bw.WriteString(npyMagic)
	bw.Write([]byte{1, 0})
	var b [2]byte
	binary.LittleEndian.PutUint16(b[:], uint16(len(header)))
	bw.Write(b[:])
	bw.WriteString(header)
	return nil
}
