//go:build !unix

package wasmbuild

import (
	"context"
	"fmt"
	"os"
	"time"
)

// lock creates the file name exclusively, waiting while another process
// holds it; a lock older than 15 minutes is taken to be left by a process
// that died.
func lock(ctx context.Context, name string) (func(), error) {
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { _ = os.Remove(name) }, nil
		}
		if !os.IsExist(err) {
			return nil, fmt.Errorf("creating the build lock: %w", err)
		}
		if st, err := os.Stat(name); err == nil && time.Since(st.ModTime()) > 15*time.Minute {
			_ = os.Remove(name)
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
