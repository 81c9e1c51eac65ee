package train

// Stream ids: every tensor that is rounded stochastically gets its own
// stream of the project's Philox generator (rng.Fill) for each step, so no
// two tensors (and no two steps) share random words. The high bits say what
// kind of tensor it is.
const (
	streamOperand = 1 << 60 // + operand id << 32 + step: a GradOutput operand
	streamWeight  = 2 << 60 // + parameter tensor << 32 + step: a BF16 master-weight update
)

func streamID(kind uint64, id, step int) uint64 {
	return kind | uint64(id)<<32 | uint64(uint32(step))
}
