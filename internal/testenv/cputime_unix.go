//go:build unix

package testenv

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time (user and system) the process has used so
// far, over all its threads: a benchmark cost that other processes' load
// does not inflate.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
