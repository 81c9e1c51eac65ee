package tensorio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// maxField bounds the length of one CSV field (a number or a header name).
const maxField = 4096

// readCSV reads a matrix of numbers, one row per line, values separated by
// commas; spaces around values are allowed, and so are double quotes around
// a value (with "" for a quote inside). A UTF-8 byte-order mark at the start
// is skipped, and so are blank lines and lines starting with '#'. A first
// line in which no field is a number is taken as a header and skipped. Every
// row must have the same number of values. Values follow fp8.ParseNumber's
// grammar, rounded once to float32: "NaN" and "Inf" are kept, values beyond
// float32 become ±Inf or 0.
//
// The text is scanned as a stream, one field at a time, so memory is the
// tensor plus a small buffer whatever the shape of the text. Malformed input
// gives an error wrapping scaling.ErrParse or scaling.ErrShape that names the
// line; more values than the limit, ErrTooLarge.
func readCSV(r io.Reader, lim Limits) (*scaling.Tensor, error) {
	sc := &csvScanner{r: bufio.NewReaderSize(r, 64<<10), line: 1, max: lim.maxElements()}
	return sc.scan()
}

// csvScanner holds the state of one readCSV.
type csvScanner struct {
	r     *bufio.Reader
	line  int // line of the byte about to be read
	max   int
	field []byte
	data  []float32
}

// errEOF is returned by next at the end of the input.
var errEOF = io.EOF

// next returns the next byte, counting lines.
func (s *csvScanner) next() (byte, error) {
	c, err := s.r.ReadByte()
	if err == nil && c == '\n' {
		s.line++
	}
	return c, err
}

// back unreads the byte just read.
func (s *csvScanner) back(c byte) {
	_ = s.r.UnreadByte()
	if c == '\n' {
		s.line--
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func (s *csvScanner) scan() (*scaling.Tensor, error) {
	if b, err := s.r.Peek(3); err == nil && string(b) == "\xef\xbb\xbf" {
		_, _ = s.r.Discard(3)
	}
	rows, cols := 0, 0
	first := true
	for {
		line := s.line
		// Skip leading spaces; a blank line or a comment is skipped whole.
		c, err := s.next()
		for err == nil && isSpace(c) {
			c, err = s.next()
		}
		if errors.Is(err, errEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if c == '\n' {
			continue
		}
		if c == '#' {
			if err := s.skipLine(); err != nil {
				return nil, err
			}
			continue
		}
		s.back(c)
		start := len(s.data)
		n, numbers, bad, err := s.record(line)
		if err != nil {
			return nil, err
		}
		if first {
			first = false
			if numbers == 0 {
				s.data = s.data[:start] // a header
				continue
			}
		}
		if bad != nil {
			return nil, bad
		}
		if cols == 0 {
			cols = n
		} else if n != cols {
			return nil, fmt.Errorf("%w: csv line %d has %d values, earlier rows have %d", scaling.ErrShape, line, n, cols)
		}
		rows++
	}
	if rows == 0 {
		return nil, fmt.Errorf("%w: csv holds no rows of numbers", scaling.ErrShape)
	}
	return scaling.FromSlice(rows, cols, s.data)
}

// skipLine reads up to and including the next newline.
func (s *csvScanner) skipLine() error {
	for {
		c, err := s.next()
		if errors.Is(err, errEOF) || (err == nil && c == '\n') {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// record reads the fields of one line, appending their values to s.data. It
// returns the number of fields, how many were numbers, and the error for the
// first field that was not (kept apart, since a header line is all words).
func (s *csvScanner) record(line int) (n, numbers int, bad, err error) {
	for {
		n++
		end, err := s.readField(line, n)
		if err != nil {
			return 0, 0, nil, err
		}
		v, perr := parseField(s.field)
		if perr != nil && !errors.Is(perr, strconv.ErrRange) {
			if bad == nil {
				bad = fmt.Errorf("%w: csv line %d, field %d: %q is not a number", scaling.ErrParse, line, n, s.field)
			}
		} else {
			numbers++
		}
		if len(s.data) >= s.max {
			return 0, 0, nil, fmt.Errorf("%w: csv has more than %d values", ErrTooLarge, s.max)
		}
		s.data = append(s.data, float32(v))
		if end {
			return n, numbers, bad, nil
		}
	}
}

// parseField reads a field by fp8.ParseNumber's grammar, rounded to
// float32. A plain decimal literal ([+-]digits[.digits][e[+-]digits]), the
// text of almost every CSV of numbers, goes straight to strconv.ParseFloat,
// which is what ParseNumber calls for it, without the copies ParseNumber
// makes: a million values cost no allocation each.
func parseField(b []byte) (float64, error) {
	if !plainDecimal(b) {
		return fp8.ParseNumber(string(b), 32)
	}
	v, err := strconv.ParseFloat(string(b), 32) // strconv keeps no reference: no copy
	if err != nil && math.IsInf(v, 0) {
		return v, fmt.Errorf("%w: csv value beyond float32's range", strconv.ErrRange)
	}
	return v, nil // underflow to zero or a subnormal is still a number
}

// plainDecimal reports whether b is [+-]digits[.digits][(e|E)[+-]digits]
// or [+-].digits[...], with at least one digit before the exponent.
func plainDecimal(b []byte) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	n := digits()
	if i < len(b) && b[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// readField reads one field into s.field, without the spaces around it or
// its quotes, and the comma or line end after it; end reports a line end.
func (s *csvScanner) readField(line, k int) (end bool, err error) {
	s.field = s.field[:0]
	long := func() error {
		return fmt.Errorf("%w: csv line %d, field %d: more than %d characters", scaling.ErrParse, line, k, maxField)
	}
	c, err := s.next()
	for err == nil && isSpace(c) {
		c, err = s.next()
	}
	if err == nil && c == '"' {
		for {
			c, err = s.next()
			if err != nil {
				return false, fmt.Errorf("%w: csv line %d, field %d: quote not closed", scaling.ErrParse, line, k)
			}
			if c == '"' {
				if c, err = s.next(); err != nil || c != '"' {
					break // the closing quote
				}
			}
			if len(s.field) >= maxField {
				return false, long()
			}
			s.field = append(s.field, c)
		}
		for err == nil && isSpace(c) {
			c, err = s.next()
		}
		switch {
		case errors.Is(err, errEOF):
			return true, nil
		case err != nil:
			return false, err
		case c == '\n':
			return true, nil
		case c == ',':
			return false, nil
		}
		return false, fmt.Errorf("%w: csv line %d, field %d: text after a closing quote", scaling.ErrParse, line, k)
	}
	for {
		switch {
		case errors.Is(err, errEOF):
			end = true
		case err != nil:
			return false, err
		case c == '\n':
			end = true
		case c == ',':
		case c == '"':
			return false, fmt.Errorf("%w: csv line %d, field %d: a quote inside an unquoted value", scaling.ErrParse, line, k)
		default:
			if len(s.field) >= maxField {
				return false, long()
			}
			s.field = append(s.field, c)
			c, err = s.next()
			continue
		}
		for len(s.field) > 0 && isSpace(s.field[len(s.field)-1]) {
			s.field = s.field[:len(s.field)-1]
		}
		return end, nil
	}
}

// WriteCSV writes t with one row per line and the shortest decimal text
// that reads back to the same float32.
func WriteCSV(w io.Writer, t *scaling.Tensor) error {
	if err := t.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 32)
	for i := 0; i < t.Rows; i++ {
		for j, v := range t.Row(i) {
			if j > 0 {
				bw.WriteByte(',')
			}
			buf = strconv.AppendFloat(buf[:0], float64(v), 'g', -1, 32)
			bw.Write(buf)
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
