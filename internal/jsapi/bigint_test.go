package jsapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/jsapi"
)

// TestBigIntOptions: a BigInt option is accepted by the 64-bit integer
// options only; the others say to pass a Number (issue 12 item 11).
func TestBigIntOptions(t *testing.T) {
	o := jsapi.Opts{"seed": jsapi.BigInt("18446744073709551615"), "bits": jsapi.BigInt("8"), "neg": jsapi.BigInt("-1")}
	u, err := o.Uint64("seed", 0)
	require.NoError(t, err)
	assert.Equal(t, uint64(1<<64-1), u)
	_, err = o.Int("bits", 16, 1, 32)
	assert.EqualError(t, err, "option bits must be an integer in [1, 32], got 8n (BigInt is not supported, pass a Number)")
	_, err = o.Float("bits", 0)
	assert.ErrorContains(t, err, "pass a Number")
	_, err = o.String("bits", "")
	assert.ErrorContains(t, err, "pass a Number")
	_, err = o.Uint64("neg", 0)
	assert.EqualError(t, err, "neg must be a BigInt in [0, 2^64-1], got -1n")
	_, err = jsapi.ToUint64("seed", jsapi.BigInt("0x10"))
	assert.Error(t, err, "String(BigInt) is decimal; anything else is refused")
}
