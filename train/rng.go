package train

import "github.com/fp8lab/fp8lab/dither"

// randomSource is the one thing train needs from the project's Philox
// generator: the words Bits(seed, stream, start+j) of one stream. Philox
// is moving from dither to its own package; only philox below changes then.
type randomSource interface {
	Fill(dst []uint32, seed, stream, start uint64)
}

type ditherPhilox struct{}

func (ditherPhilox) Fill(dst []uint32, seed, stream, start uint64) {
	dither.Fill(dst, seed, stream, start)
}

// philox is the Philox4x32-10 source of every stochastic rounding.
var philox randomSource = ditherPhilox{}

// Stream ids: every tensor that is rounded stochastically gets its own
// stream for each step, so no two tensors (and no two steps) share random
// words. The high bits say what kind of tensor it is.
const (
	streamOperand = 1 << 60 // + operand id << 32 + step: a GradOutput operand
	streamWeight  = 2 << 60 // + parameter tensor << 32 + step: a BF16 master-weight update
)

func streamID(kind uint64, id, step int) uint64 {
	return kind | uint64(id)<<32 | uint64(uint32(step))
}
