package scaling

import "errors"

// Errors returned by the package. Wrapped errors carry details (which block,
// which shape); test them with errors.Is.
var (
	// ErrShape reports a bad or mismatched tensor shape: zero or negative
	// dimensions, a data length that is not rows*cols, or operands whose
	// dimensions do not agree.
	ErrShape = errors.New("scaling: bad shape")
	// ErrNonFinite reports a NaN or ±Inf where a finite value is needed, such
	// as the amax a current scale is computed from.
	ErrNonFinite = errors.New("scaling: non-finite value")
	// ErrValue reports a finite value outside its domain, such as a negative
	// amax.
	ErrValue = errors.New("scaling: value out of range")
	// ErrGranularity reports an unknown granularity, a bad block size, or a
	// granularity that does not go with the element format or the options.
	ErrGranularity = errors.New("scaling: bad granularity")
	// ErrFormat reports an element format that cannot be used here, such as
	// the unsigned E8M0 as an element type, or FNUZ as an MX element type.
	ErrFormat = errors.New("scaling: unsupported element format")
	// ErrOptions reports inconsistent options: stochastic rounding without
	// random words, a negative epsilon, an unknown rule.
	ErrOptions = errors.New("scaling: bad options")
	// ErrParse reports malformed input to the tensor readers (package
	// tensorio) and the parsers of names.
	ErrParse = errors.New("scaling: parse error")
)
