package viz

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"strconv"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The catalog is the one list of scenes: every entry makes a scene of its
// name, with a title and the texts the site and the desktop tabs show.
func TestCatalog(t *testing.T) {
	infos := Scenes()
	require.NotEmpty(t, infos)
	seen := map[string]bool{}
	var names []string
	for _, in := range infos {
		assert.False(t, seen[in.Name], "scene %s listed twice", in.Name)
		seen[in.Name] = true
		names = append(names, in.Name)
		assert.NotEmpty(t, in.Label, in.Name)
		assert.NotEmpty(t, in.Summary, in.Name)
		s, err := New(in.Name)
		require.NoError(t, err)
		assert.Equal(t, in.Name, s.Name())
		assert.NotEmpty(t, s.Title())
	}
	assert.Equal(t, names, Names())
	_, err := New("nope")
	assert.Error(t, err)
}

// TestParamsRoundTrip checks every parameter's spec: the default reads
// back, a good value is stored canonically, an unknown name and bad
// values are errors that leave the scene unchanged.
func TestParamsRoundTrip(t *testing.T) {
	for _, n := range Names() {
		s, err := New(n)
		require.NoError(t, err)
		for _, p := range s.Params() {
			v, err := s.Get(p.Name)
			require.NoError(t, err, "%s.%s", n, p.Name)
			assert.Equal(t, p.Default, v, "%s.%s default", n, p.Name)
			assert.NotEmpty(t, p.Label, "%s.%s label", n, p.Name)
			assert.NotEmpty(t, p.Help, "%s.%s help", n, p.Name)
			var bad []string
			switch p.Kind {
			case ParamChoice:
				require.Contains(t, p.Options, p.Default, "%s.%s", n, p.Name)
				bad = []string{"no-such-option", ""}
			case ParamInt:
				bad = []string{"x", "1.5", strconv.FormatFloat(p.Max+1, 'f', -1, 64), strconv.FormatFloat(p.Min-1, 'f', -1, 64)}
			case ParamNumber:
				bad = []string{"x", "NaN", "Inf", strconv.FormatFloat(p.Max*2+1, 'g', -1, 64)}
			case ParamBool:
				bad = []string{"maybe"}
			}
			for _, b := range bad {
				err := s.Set(p.Name, b)
				assert.ErrorIs(t, err, ErrParam, "%s.%s=%q", n, p.Name, b)
				if p.Kind == ParamInt && err != nil {
					// The range is printed as integers, as typed: 0..1048576, not 1.048576e+06.
					assert.NotRegexp(t, `\de[+-]\d`, err.Error(), "%s.%s", n, p.Name)
				}
				v2, _ := s.Get(p.Name)
				assert.Equal(t, v, v2, "%s.%s changed by a bad value", n, p.Name)
			}
		}
		assert.ErrorIs(t, s.Set("no_such_param", "1"), ErrParam)
		_, err = s.Get("no_such_param")
		assert.ErrorIs(t, err, ErrParam)
	}
}

// TestEveryOptionRenders sets each parameter to each of its options (or
// its ends) in turn and renders: no value a user can pick may break a
// scene.
func TestEveryOptionRenders(t *testing.T) {
	testenv.SkipUnlessLong(t, "renders every option of every scene")
	for _, n := range Names() {
		t.Run(n, func(t *testing.T) {
			s, err := New(n)
			require.NoError(t, err)
			img := image.NewRGBA(image.Rect(0, 0, MinWidth, MinHeight))
			for _, p := range s.Params() {
				var vals []string
				switch p.Kind {
				case ParamChoice:
					vals = p.Options
				case ParamInt, ParamNumber:
					vals = []string{fmt.Sprint(p.Min), fmt.Sprint(p.Max)}
				case ParamBool:
					vals = []string{"true", "false"}
				}
				for _, v := range vals {
					if err := s.Set(p.Name, v); err != nil {
						// Some combinations are refused (e.g. MX with an
						// FNUZ format): that must be an ErrParam, and the
						// scene must still draw.
						assert.ErrorIs(t, err, ErrParam, "%s=%s", p.Name, v)
					}
					require.NoError(t, s.Render(img), "%s=%s", p.Name, v)
					assert.NotEmpty(t, s.Facts())
				}
				require.NoError(t, s.Set(p.Name, p.Default))
			}
		})
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	for _, n := range Names() {
		_, a, err := Render(n, nil, 640, 360)
		require.NoError(t, err)
		s, err := New(n)
		require.NoError(t, err)
		b := image.NewRGBA(image.Rect(0, 0, 640, 360))
		require.NoError(t, s.Render(b))
		require.NoError(t, s.Render(b)) // a second render of the same scene
		assert.True(t, bytes.Equal(a.Pix, b.Pix), "%s renders differently twice", n)
	}
}

func TestRenderAnySizeAndOffset(t *testing.T) {
	for _, n := range Names() {
		s, err := New(n)
		require.NoError(t, err)
		for _, sz := range []image.Point{{MinWidth, MinHeight}, {MinWidth, 900}, {1600, MinHeight}, {1920, 1080}, {3000, 2000}} {
			img := image.NewRGBA(image.Rect(0, 0, sz.X, sz.Y))
			assert.NoError(t, s.Render(img), "%s at %v", n, sz)
		}
		// A sub-image (bounds not at the origin) is filled, nothing outside.
		big := image.NewRGBA(image.Rect(0, 0, 900, 600))
		sub := big.SubImage(image.Rect(100, 50, 740, 410)).(*image.RGBA)
		require.NoError(t, s.Render(sub), n)
		assert.Equal(t, uint8(0), big.Pix[big.PixOffset(10, 10)+3], "%s drew outside its sub-image", n)
		assert.Equal(t, uint8(0xff), big.Pix[big.PixOffset(101, 51)+3], "%s left its sub-image empty", n)
		// Too small or nil is an error, not a panic.
		assert.Error(t, s.Render(image.NewRGBA(image.Rect(0, 0, MinWidth-1, 600))))
		assert.Error(t, s.Render(nil))
	}
	_, _, err := Render("explorer", nil, 10, 10)
	assert.Error(t, err)
	_, _, err = Render("explorer", map[string]string{"code": "999"}, 640, 360)
	assert.True(t, errors.Is(err, ErrParam))
}

func TestClickOutsideDoesNothing(t *testing.T) {
	for _, n := range Names() {
		s, err := New(n)
		require.NoError(t, err)
		before := map[string]string{}
		for _, p := range s.Params() {
			before[p.Name], _ = s.Get(p.Name)
		}
		assert.False(t, s.Click(-5, -5, 640, 360), n)
		assert.False(t, s.Click(2, 2, 640, 360), n) // the title bar
		for _, p := range s.Params() {
			v, _ := s.Get(p.Name)
			assert.Equal(t, before[p.Name], v, "%s.%s", n, p.Name)
		}
	}
}

func splitCols(t *testing.T, r image.Rectangle, gap int, w ...float64) []image.Rectangle {
	t.Helper()
	out, err := drawSplitColumns(r, gap, w...)
	require.NoError(t, err)
	return out
}

func gridCells(t *testing.T, r image.Rectangle, rows, cols, gap int) []image.Rectangle {
	t.Helper()
	out, err := drawGridCells(r, rows, cols, gap)
	require.NoError(t, err)
	return out
}
