package site

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// The home page's numbers (the facts in its prose and the table of every
// format) are written into it when it is generated, from package fp8, and
// its scene cards show pictures the scenes drew then (thumbs/NAME.png), so
// that the page loads no WebAssembly to show them: only its "Try it" boxes
// load the core module, when they come into view (home.js). The texts are
// those common.js writes (fmt, fmtPow2, codeRanges), which tests compare.

// Thumbnails are drawn at this size, the backing size of a card's picture
// at a device pixel ratio of 2.
const thumbW, thumbH = 800, 500

// thumbDir is the folder of the generated thumbnails.
const thumbDir = "thumbs"

// formatRow is one row of the home page's table of formats.
type formatRow struct {
	Name, Bits, Bias, Positive, Inf, NaNs string
	Max, MinNormal, MinSub                cell
}

// cell is a number shown compactly (2⁻⁹) with its exact value as a title.
type cell struct{ Text, Title string }

// formatRows lists every preset, in the order of fp8.Presets.
func formatRows() []formatRow {
	var rows []formatRow
	for _, f := range fp8.Presets() {
		in := f.Info()
		bits := strconv.Itoa(in.ExpBits) + "+" + strconv.Itoa(in.ManBits)
		if in.Signed {
			bits = "1+" + bits
		}
		num := func(x float64) cell { return cell{pow2Text(x, true), numberText(x)} }
		r := formatRow{Name: in.Name, Bits: bits, Bias: strconv.Itoa(in.Bias), Positive: strconv.Itoa(in.PositiveFinite),
			Inf: "no", NaNs: codeRanges(in.NaNCodes), Max: num(in.Max), MinNormal: num(in.MinNormal), MinSub: cell{Text: "—"}}
		if in.MinSubnormal > 0 {
			r.MinSub = num(in.MinSubnormal)
		}
		if in.InfCount > 0 {
			r.Inf = "yes"
		}
		if r.NaNs == "" {
			r.NaNs = "—"
		}
		rows = append(rows, r)
	}
	return rows
}

// fact returns one number of the home page's prose, "FORMAT.field": codes
// (how many), max, positive_finite, binades (to a tenth), eps,
// min_normal, min_subnormal (as powers of two with their values).
func fact(key string) (string, error) {
	name, field, ok := strings.Cut(key, ".")
	f, err := fp8.Lookup(name)
	if !ok || err != nil {
		return "", fmt.Errorf("site: fact %q: no such format", key)
	}
	in := f.Info()
	switch field {
	case "codes":
		return strconv.Itoa(1 << in.Bits), nil
	case "max":
		return numberText(in.Max), nil
	case "positive_finite":
		return strconv.Itoa(in.PositiveFinite), nil
	case "binades":
		return numberText(math.Round(in.Binades*10) / 10), nil
	case "eps":
		return pow2Text(in.Eps, false), nil
	case "min_normal":
		return pow2Text(in.MinNormal, false), nil
	case "min_subnormal":
		return pow2Text(in.MinSubnormal, false), nil
	}
	return "", fmt.Errorf("site: fact %q: no such field", key)
}

// numberText prints x as the CLI does (and common.js's fmt): the shortest
// digits that read back exactly, "+Inf", "-0".
func numberText(x float64) string {
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// pow2Text prints a small or huge power of two as 2^k (k < -3 or k > 20),
// followed by its value unless compact: "2⁻⁹ (0.001953125)"; any other
// number as numberText.
func pow2Text(x float64, compact bool) string {
	frac, exp := math.Frexp(x)
	if x > 0 && !math.IsInf(x, 0) && frac == 0.5 && (exp-1 < -3 || exp-1 > 20) {
		p := "2" + plot.Superscript(exp-1)
		if compact {
			return p
		}
		return p + " (" + numberText(x) + ")"
	}
	return numberText(x)
}

// codeRanges lists codes compactly: "0x7F 0xFF", "0x79–0x7F 0xF9–0xFF".
func codeRanges(codes []int) string {
	var out []string
	for i := 0; i < len(codes); {
		j := i
		for j+1 < len(codes) && codes[j+1] == codes[j]+1 {
			j++
		}
		if j > i {
			out = append(out, fmt.Sprintf("0x%02X–0x%02X", codes[i], codes[j]))
		} else {
			out = append(out, fmt.Sprintf("0x%02X", codes[i]))
		}
		i = j + 1
	}
	return strings.Join(out, " ")
}

// thumbnail draws scene name at the size of a home-page card as a PNG.
func thumbnail(name string) ([]byte, error) {
	s, err := viz.New(name)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, thumbW, thumbH))
	if err := s.Render(img); err != nil {
		return nil, fmt.Errorf("site: thumbnail of %s: %w", name, err)
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
