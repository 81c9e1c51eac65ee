//go:build unix

package train

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used
// so far, over all its threads.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
