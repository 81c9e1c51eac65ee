package viz

import (
	"bytes"
	"image"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func render(t *testing.T, s Scene, w, h int) *image.RGBA {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	require.NoError(t, s.Render(img))
	return img
}

func TestExplorerShows448(t *testing.T) {
	s, img, err := Render("explorer", map[string]string{"format": "E4M3FN", "code": "0x7E"}, 640, 360)
	require.NoError(t, err)
	f := s.Facts()
	assert.Equal(t, "448", f["value"])
	assert.Equal(t, "0x7E", f["code"])
	assert.Equal(t, "0.1111.110", f["bits"])
	assert.Equal(t, "max", f["class"])
	assert.Equal(t, "32", f["ulp"])
	assert.Equal(t, "416", f["lower"])
	assert.NotContains(t, f, "upper", "0x7F is NaN: 448 has no upper neighbour")
	// Another code gives another picture.
	require.NoError(t, s.Set("code", "0x7D"))
	assert.Equal(t, "416", s.Facts()["value"])
	assert.False(t, bytes.Equal(img.Pix, render(t, s, 640, 360).Pix), "the picture did not change with the code")
}

func TestExplorerFormats(t *testing.T) {
	cases := []struct{ format, code, value, class string }{
		{"E5M2", "0x7B", "57344", "max"},
		{"E5M2", "0x7C", "+Inf", "inf"},
		{"E4M3FNUZ", "0x80", "NaN", "nan"},
		{"E4M3FNUZ", "0x7F", "240", "max"},
		{"E2M1", "7", "6", "max"},
		{"E2M1", "1", "0.5", "subnormal"},
		{"E4M3FN", "1", "0.001953125", "subnormal"},
		{"E8M0", "127", "1", "normal"},
	}
	for _, c := range cases {
		s, _, err := Render("explorer", map[string]string{"format": c.format, "code": c.code}, 640, 360)
		require.NoError(t, err, c)
		assert.Equal(t, c.value, s.Facts()["value"], c)
		assert.Equal(t, c.class, s.Facts()["class"], c)
	}
}

func TestExplorerRoundsTypedValue(t *testing.T) {
	s, err := New("explorer")
	require.NoError(t, err)
	require.NoError(t, s.Set("value", "464")) // a tie: to even, 448
	f := s.Facts()
	assert.Equal(t, "448", f["result"])
	assert.Equal(t, "0x7E", f["code"], "the typed value selects its code")
	assert.Equal(t, "16", f["abs_error"])
	require.NoError(t, s.Set("value", "-431.99999999999994")) // no double rounding
	assert.Equal(t, "-416", s.Facts()["result"])
	require.NoError(t, s.Set("value", "1e6"))
	assert.Equal(t, "true", s.Facts()["overflow"])
	assert.Equal(t, "448", s.Facts()["result"])
	require.NoError(t, s.Set("overflow", "no-saturate"))
	assert.Equal(t, "NaN", s.Facts()["result"])
	assert.ErrorIs(t, s.Set("value", "twelve"), ErrParam)
	// E8M0 has no negative values: refused, and nothing changes.
	require.NoError(t, s.Set("format", "E8M0"))
	before := s.Facts()
	assert.ErrorIs(t, s.Set("value", "-3"), ErrParam)
	assert.Equal(t, before, s.Facts())
	// Selecting a code clears the typed value.
	require.NoError(t, s.Set("code", "3"))
	v, _ := s.Get("value")
	assert.Equal(t, "", v)
}

func TestExplorerFormatChangeKeepsLowBits(t *testing.T) {
	s, err := New("explorer")
	require.NoError(t, err)
	require.NoError(t, s.Set("code", "0xFE"))
	require.NoError(t, s.Set("format", "E2M1"))
	c, _ := s.Get("code")
	assert.Equal(t, "14", c) // 0xFE & 0x0F
	assert.Equal(t, "-4", s.Facts()["value"])
}

func TestExplorerClicks(t *testing.T) {
	s, err := New("explorer")
	require.NoError(t, err)
	render(t, s, 1280, 720)
	e := s.(*explorer)
	// Clicking the last bit cell flips the least significant bit.
	lsb := e.last.bits[len(e.last.bits)-1]
	require.True(t, s.Click(lsb.Min.X+2, lsb.Min.Y+2, 1280, 720))
	assert.Equal(t, "0x7F", s.Facts()["code"])
	assert.Equal(t, "NaN", s.Facts()["value"])
	// Clicking a cell of the grid selects that code.
	cell := e.last.grid[0x38]
	require.True(t, s.Click((cell.Min.X+cell.Max.X)/2, (cell.Min.Y+cell.Max.Y)/2, 1280, 720))
	assert.Equal(t, "1", s.Facts()["value"])
	// A click at another size lays the picture out for that size first.
	small := image.NewRGBA(image.Rect(0, 0, 640, 360))
	require.NoError(t, s.Render(small))
	cell = e.last.grid[0x7E]
	render(t, s, 1280, 720) // the last render is now at another size
	require.True(t, s.Click((cell.Min.X+cell.Max.X)/2, (cell.Min.Y+cell.Max.Y)/2, 640, 360))
	assert.Equal(t, "448", s.Facts()["value"])
}

// TestOneNumberGrammar: scene controls read numbers as the CLI and the CSV
// reader do (fp8's grammar): no underscores, hex floats allowed, and decimal
// text rounded once ("1.06250000000000000001" is just above the tie).
func TestOneNumberGrammar(t *testing.T) {
	s, err := New("explorer")
	require.NoError(t, err)
	for _, bad := range []string{"1_000", "0x1_0p0", "abc"} {
		require.Error(t, s.Set("value", bad), bad)
		require.Error(t, s.Set("code", bad), bad)
	}
	require.NoError(t, s.Set("code", "0x7E"))
	require.NoError(t, s.Set("value", "0x1p-9"))
	require.NoError(t, s.Set("value", "1.06250000000000000001"))
	facts := s.Facts()
	assert.Equal(t, "0x39", facts["result_code"], "the text lies above the tie 1.0625, so it rounds up once")
}

// The info text (code, ULP, neighbours and the rounding box) stays inside
// its column at phone, projector and desktop sizes, for the long lines of
// a NaN code and of a typed number: drawn alone on a blank picture, no
// pixel falls right of the column.
func TestExplorerInfoFitsColumn(t *testing.T) {
	for _, sz := range []image.Point{{357, 1152}, {1024, 768}, {1280, 800}, {1920, 1080}} {
		for _, set := range []map[string]string{{"code": "127"}, {"format": "E4M3FNUZ", "code": "128"}, {"format": "E5M2", "code": "126"}, {"format": "E5M2", "code": "123", "value": "61441"}, {"value": "465"}, {"value": "0.0001", "rounding": "away"}, {}} {
			s, err := New("explorer")
			require.NoError(t, err)
			require.NoError(t, SetAll(s, set))
			dst := image.NewRGBA(image.Rect(0, 0, sz.X, sz.Y))
			require.NoError(t, RenderFor(s, dst, Display{PixelRatio: 1}))
			e := s.(*explorer)
			st := newStyle(sz.X, sz.Y, Display{PixelRatio: 1})
			blank := image.NewRGBA(dst.Bounds())
			e.drawInfo(blank, st, e.last.info)
			right := 0
			for y := 0; y < sz.Y; y++ {
				for x := sz.X - 1; x > right; x-- {
					if blank.Pix[blank.PixOffset(x, y)+3] != 0 {
						right = x
						break
					}
				}
			}
			assert.Less(t, right, e.last.info.Max.X, "%v %v: info text reaches x=%d beyond its column %v", sz, set, right, e.last.info)
		}
	}
}

// TestExplorerTextNeverCut: the info text, with the longest explanations
// (a typed number with many digits, an overflow, a flush to zero, a NaN
// code, the top edge with nothing typed), loses no line at phone sizes
// (×1 and ×3), on a projector and on the desktop: the text takes the
// height it needs from the number line below it.
func TestExplorerTextNeverCut(t *testing.T) {
	sizes := []struct {
		w, h int
		r    float64
	}{{357, 1152, 1}, {357, 1152, 3}, {390, 1300, 2}, {640, 360, 1}, {1024, 768, 1}, {991, 541, 1}, {980, 570, 1}, {1920, 1080, 1}, {1280, 720, 1}}
	settings := []map[string]string{
		{}, {"code": "127"}, {"format": "E4M3FNUZ", "code": "128"},
		{"value": "0.000123456789123456"}, {"value": "-123456.789012345", "overflow": "no-saturate"},
		{"value": "1e-300", "rounding": "away"}, {"value": "465"}, {"value": "2^-9"},
		{"format": "E5M2", "value": "61439.99999999"}, {"format": "E2M1", "value": "-5.000000001", "rounding": "zero"},
	}
	for _, sz := range sizes {
		for _, set := range settings {
			s, err := New("explorer")
			require.NoError(t, err)
			require.NoError(t, SetAll(s, set))
			dst := image.NewRGBA(image.Rect(0, 0, int(float64(sz.w)*sz.r), int(float64(sz.h)*sz.r)))
			require.NoError(t, RenderFor(s, dst, Display{PixelRatio: sz.r}))
			assert.Zero(t, s.(*explorer).dropped, "%v %v: lines of text left out", sz, set)
		}
	}
}

// On the 1024×768 page's canvas (757×594; 755×448 where the browser's bars
// take more of the window) the explorer's info text is never cut
// mid-phrase: every line it draws is a whole line or whole parts of one
// (split at its "  ·  "), in its long or short form; a subnormal code keeps
// its ULP and both neighbours (E4M3FN code 2 lost "binade" and the line of
// neighbours), and a typed number's box is drawn whole.
func TestExplorerTextNeverCutMidPhrase(t *testing.T) {
	settings := []map[string]string{
		{}, {"code": "2"}, {"code": "0"}, {"code": "127"}, {"format": "E8M0", "code": "0"},
		{"value": "0.000123456789123456"}, {"value": "465"}, {"format": "E5M2", "value": "nan"},
		{"format": "E2M1", "value": "-5.000000001", "rounding": "zero"},
	}
	for _, sz := range []image.Point{{757, 594}, {755, 448}} {
		for _, set := range settings {
			s, err := New("explorer")
			require.NoError(t, err)
			require.NoError(t, SetAll(s, set))
			_, boxes := renderRecorded(t, s, image.Rect(0, 0, sz.X, sz.Y), Display{PixelRatio: 1})
			e := s.(*explorer)
			ci, _ := e.f.Describe(e.code())
			long, short := e.infoLines(e.code(), ci)
			var whole []string
			if e.explain != nil {
				whole = append(whole, strings.TrimSuffix(inputHead(*e.explain, plot.TextStyle{}, 0), ")"), e.inputLine(*e.explain)) // the mode may be left out
			}
			drawn := map[string]bool{}
			for _, b := range boxes {
				drawn[b.Text] = true
				for _, l := range append(append(long, short...), whole...) {
					if strings.HasPrefix(l, b.Text) && b.Text != l {
						assert.True(t, strings.HasPrefix(l[len(b.Text):], "  ·  "), "%v %v: %q is cut from %q", sz, set, b.Text, l)
					}
				}
			}
			// The box's lines may wrap, whole, at spaces.
			var all []string
			for _, b := range boxes {
				all = append(all, b.Text)
			}
			text := strings.Join(strings.Fields(strings.Join(all, " ")), " ")
			for _, l := range whole {
				for _, part := range strings.Split(l, "  ·  ") {
					assert.Contains(t, text, strings.Join(strings.Fields(part), " "), "%v %v: a part of the typed number's box is not drawn", sz, set)
				}
			}
			if set["code"] == "2" {
				assert.True(t, drawn["code 0x02  ·  subnormal  ·  ULP 0.001953125"] || drawn[long[1]], "%v: the ULP", sz)
				assert.True(t, drawn["below: 0.001953125 (0x01)  ·  above: 0.005859375 (0x03)"] ||
					(drawn["below: 0.001953125 (0x01)"] && drawn["above: 0.005859375 (0x03)"]) || drawn[long[2]], "%v: the neighbours", sz)
			}
		}
	}
}
