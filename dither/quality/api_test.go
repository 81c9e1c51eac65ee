package quality

import (
	"testing"

	"github.com/fp8lab/fp8lab/internal/apitest"
)

// TestAPIOnZeroValues: every exported function, called with nil, zero,
// one-element and out-of-range arguments, returns instead of panicking
// (issue 26 item 8; see internal/apitest).
func TestAPIOnZeroValues(t *testing.T) {
	apitest.Check(t, apitest.API{
		Funcs: []any{AveragePSNR, Blur, BlurredPSNR, MSE, PSNR, SSIM},
	})
}
