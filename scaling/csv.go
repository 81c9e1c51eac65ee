package scaling

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadCSV reads a matrix of numbers, one row per line, values separated by
// commas (spaces around them are allowed). Blank lines and lines starting
// with '#' are skipped. A first line in which no field is a number is taken
// as a header and skipped. Every row must have the same number of values;
// values are parsed as float32 (strconv.ParseFloat, so "NaN" and "Inf" are
// accepted and kept, and values beyond float32 become ±Inf or 0).
// Malformed input gives an error wrapping ErrParse or
// ErrShape that names the line.
func ReadCSV(r io.Reader) (*Tensor, error) {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	var data []float32
	cols, rows := 0, 0
	first := true
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: csv: %v", ErrParse, err)
		}
		line, _ := cr.FieldPos(0)
		if first {
			first = false
			if isHeader(rec) {
				continue
			}
		}
		if cols == 0 {
			cols = len(rec)
		} else if len(rec) != cols {
			return nil, fmt.Errorf("%w: csv line %d has %d values, earlier rows have %d", ErrShape, line, len(rec), cols)
		}
		if len(data)+len(rec) > MaxElements {
			return nil, fmt.Errorf("%w: csv has more than %d values", ErrShape, MaxElements)
		}
		for k, field := range rec {
			v, err := strconv.ParseFloat(strings.TrimSpace(field), 32)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, fmt.Errorf("%w: csv line %d, field %d: %q is not a number", ErrParse, line, k+1, field)
			}
			data = append(data, float32(v))
		}
		rows++
	}
	if rows == 0 {
		return nil, fmt.Errorf("%w: csv holds no rows of numbers", ErrShape)
	}
	return FromSlice(rows, cols, data)
}

// isHeader reports whether no field of rec parses as a number.
func isHeader(rec []string) bool {
	for _, f := range rec {
		if _, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err == nil || errors.Is(err, strconv.ErrRange) {
			return false
		}
	}
	return true
}

// WriteCSV writes t with one row per line and the shortest decimal text
// that reads back to the same float32.
func WriteCSV(w io.Writer, t *Tensor) error {
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
