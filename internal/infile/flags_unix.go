//go:build unix

package infile

import "syscall"

// openFlags makes opening a named pipe return at once instead of waiting
// for a writer (Open refuses it right after).
const openFlags = syscall.O_NONBLOCK
