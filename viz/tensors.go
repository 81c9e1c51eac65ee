package viz

import (
	"fmt"
	"math"
	"strings"

	"github.com/fp8lab/fp8lab/scaling"
)

// TensorLoader is implemented by scenes that can show a caller's tensor
// (the window and granularity scenes). Scenes never open files: whoever hosts one (fp8lab
// render --tensor, the desktop app, the browser's loadTensor) reads the file
// with package tensorio and hands the tensor over through LoadTensor.
type TensorLoader interface {
	// LoadTensor replaces the scene's tensor by t (copied) and selects it.
	LoadTensor(t *scaling.Tensor) error
}

// TensorScenes returns the names of the scenes that can show a caller's
// tensor (the TensorLoaders of the catalog), for help texts and errors.
func TensorScenes() []string {
	var out []string
	for _, c := range catalog {
		if _, ok := c.make().(TensorLoader); ok {
			out = append(out, c.info.Name)
		}
	}
	return out
}

// Synthetic tensors are 64×1024: enough values for smooth histograms, small
// enough to quantize at every frame.
const (
	tensorRows = 64
	tensorCols = 1024
)

// LoadedTensor is the option of a TensorLoader's tensor choice that shows
// the tensor handed over through LoadTensor: it can be chosen only after
// one was loaded.
const LoadedTensor = "loaded"

// tensorKinds are the synthetic distributions, plus LoadedTensor.
var tensorKinds = []string{"normal", "lognormal", "gradients", LoadedTensor}

// makeTensor returns a synthetic tensor of the given kind, multiplied by
// 2^magLog2, from scaling's seeded normal generator:
//
//   - normal: N(0, 1), the bulk of activations and weights;
//   - lognormal: ±2^(2·z), z ~ N(0, 1), spread over many binades;
//   - gradients: a Student-t with 3 degrees of freedom times 2^-12: tiny
//     values with heavy tails, as gradients are.
func makeTensor(kind string, magLog2 int, seed uint64) (*scaling.Tensor, error) {
	z, err := scaling.RandomNormal(tensorRows, tensorCols, 1, seed)
	if err != nil {
		return nil, err
	}
	mag := math.Exp2(float64(magLog2))
	out := z.Clone()
	switch kind {
	case "normal":
		for i, v := range z.Data {
			out.Data[i] = float32(float64(v) * mag)
		}
	case "lognormal":
		sg, err := scaling.RandomNormal(tensorRows, tensorCols, 1, seed+1)
		if err != nil {
			return nil, err
		}
		for i, v := range z.Data {
			x := math.Exp2(2*float64(v)) * mag
			if sg.Data[i] < 0 {
				x = -x
			}
			out.Data[i] = float32(x)
		}
	case "gradients":
		var chi [3]*scaling.Tensor
		for k := range chi {
			if chi[k], err = scaling.RandomNormal(tensorRows, tensorCols, 1, seed+uint64(k)+1); err != nil {
				return nil, err
			}
		}
		for i, v := range z.Data {
			a, b, c := float64(chi[0].Data[i]), float64(chi[1].Data[i]), float64(chi[2].Data[i])
			t := float64(v) / math.Sqrt((a*a+b*b+c*c)/3)
			out.Data[i] = float32(t * math.Exp2(-12) * mag)
		}
	default:
		return nil, fmt.Errorf("unknown tensor kind %q (want %s)", kind, strings.Join(tensorKinds[:3], ", "))
	}
	return out, nil
}

// scaled returns a copy of t multiplied by 2^magLog2 (exact for float32
// unless it overflows or underflows).
func scaled(t *scaling.Tensor, magLog2 int) *scaling.Tensor {
	out := t.Clone()
	if magLog2 == 0 {
		return out
	}
	m := math.Exp2(float64(magLog2))
	for i, v := range out.Data {
		out.Data[i] = float32(float64(v) * m)
	}
	return out
}
