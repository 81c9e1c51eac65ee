//go:build !unix

package infile

// openFlags is 0 where the system has no O_NONBLOCK: the stat before the
// open refuses named pipes there.
const openFlags = 0
