package dither

import (
	"fmt"
	"strconv"
	"strings"
)

// Method is a way to quantize an image's pixels onto a set of levels.
type Method uint8

const (
	// Nearest rounds every pixel to the nearest level. Detail whose contrast
	// is below half a level step disappears, and averaging frames cannot
	// bring it back: every frame is the same.
	Nearest Method = iota
	// Stochastic rounds each pixel up with probability equal to its position
	// between the two levels around it (stochastic rounding, also called
	// noisy or random dithering): round(v) = floor(t + u) on the level scale
	// t, with u a fresh random number per pixel and frame. The expected value
	// of every pixel is the original, so the mean of N frames converges to it.
	Stochastic
	// Bayer2 is ordered dithering with the 2×2 Bayer threshold matrix: the
	// random u of Stochastic is replaced by a fixed, evenly spread threshold
	// that repeats every 2 pixels.
	Bayer2
	// Bayer4 is ordered dithering with the 4×4 Bayer matrix.
	Bayer4
	// Bayer8 is ordered dithering with the 8×8 Bayer matrix.
	Bayer8
	// FloydSteinberg is error diffusion: each pixel is rounded to nearest and
	// its error is passed on to unvisited neighbours with weights 7/16 (next
	// in the row), 3/16, 5/16 and 1/16 (below). Rows are scanned in
	// alternating directions (serpentine) to avoid drifting patterns.
	FloydSteinberg
)

var methodNames = [...]string{"nearest", "stochastic", "bayer2", "bayer4", "bayer8", "floyd"}

// methodAliases lists other accepted spellings.
var methodAliases = map[string]Method{
	"round":           Nearest,
	"sr":              Stochastic,
	"random":          Stochastic,
	"noisy":           Stochastic,
	"ordered":         Bayer4,
	"fs":              FloydSteinberg,
	"floyd-steinberg": FloydSteinberg,
	"floydsteinberg":  FloydSteinberg,
	"error-diffusion": FloydSteinberg,
}

// Methods returns every method in a stable order.
func Methods() []Method {
	return []Method{Nearest, Stochastic, Bayer2, Bayer4, Bayer8, FloydSteinberg}
}

// String returns the method's name as the CLI spells it: nearest,
// stochastic, bayer2, bayer4, bayer8 or floyd.
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return "Method(" + strconv.Itoa(int(m)) + ")"
}

// Valid reports whether m is one of the defined methods.
func (m Method) Valid() bool { return int(m) < len(methodNames) }

// UsesRandomBits reports whether the method draws random bits, so that
// frames differ and their average converges to the original image. Only
// Stochastic does; the others give the same frame every time.
func (m Method) UsesRandomBits() bool { return m == Stochastic }

// bayerSize returns the matrix size of an ordered method, or 0.
func (m Method) bayerSize() int {
	switch m {
	case Bayer2:
		return 2
	case Bayer4:
		return 4
	case Bayer8:
		return 8
	}
	return 0
}

// ParseMethod parses a method name, case-insensitively and ignoring
// surrounding spaces: nearest, stochastic, bayer2, bayer4, bayer8, floyd,
// or an alias (sr, noisy, random, ordered = bayer4, fs, floyd-steinberg,
// error-diffusion, round). An unknown name gives an error wrapping
// ErrUnknownMethod that lists the known names.
func ParseMethod(s string) (Method, error) {
	key := strings.ToLower(strings.TrimSpace(s))
	for i, n := range methodNames {
		if key == n {
			return Method(i), nil
		}
	}
	if m, ok := methodAliases[key]; ok {
		return m, nil
	}
	return 0, fmt.Errorf("%w %q (known: %s)", ErrUnknownMethod, s, strings.Join(methodNames[:], ", "))
}

// MaxLevels is the largest number of uniform levels accepted (16 bits).
const MaxLevels = 1 << 16

// ParseLevels parses a number of uniform levels k, a decimal integer in
// 2..MaxLevels (surrounding spaces ignored): the CLI's --levels value.
func ParseLevels(s string) (int, error) {
	k, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%w: levels %q is not an integer", ErrInvalidArgument, s)
	}
	if err := checkLevels(k); err != nil {
		return 0, err
	}
	return k, nil
}

// checkLevels validates a number of uniform levels.
func checkLevels(k int) error {
	if k < 2 || k > MaxLevels {
		return fmt.Errorf("%w: levels must be in 2..%d, got %d", ErrInvalidArgument, MaxLevels, k)
	}
	return nil
}

// BayerMatrix returns the n×n Bayer index matrix row by row, for n a power
// of two from 2 to 64: a permutation of 0..n²-1 in which consecutive
// indices are spread as far apart as possible. It is built by the recursion
// M(2n) = [[4M, 4M+2], [4M+3, 4M+1]] from M(1) = [0]. The ordered methods
// use the threshold (M[y mod n][x mod n] + 1/2) / n² at pixel (x, y).
func BayerMatrix(n int) ([]int, error) {
	if n < 2 || n > 64 || n&(n-1) != 0 {
		return nil, fmt.Errorf("%w: Bayer matrix size must be a power of two in 2..64, got %d", ErrInvalidArgument, n)
	}
	m := []int{0}
	for size := 1; size < n; size *= 2 {
		next := make([]int, 4*size*size)
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				v := 4 * m[y*size+x]
				w := 2 * size
				next[y*w+x] = v
				next[y*w+x+size] = v + 2
				next[(y+size)*w+x] = v + 3
				next[(y+size)*w+x+size] = v + 1
			}
		}
		m = next
	}
	return m, nil
}
