//go:build cuda

package cuda

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// arena owns the device buffers of one operation; free releases all of
// them, on every path (callers defer it right after creating the arena).
type arena struct {
	ptrs []cu.DevicePtr
}

// alloc allocates n bytes (at least 1) of device memory, 256-byte aligned.
func (a *arena) alloc(n int64) (cu.DevicePtr, error) {
	n = max(n, 1)
	p, err := cu.MemAlloc(n)
	if err != nil {
		return 0, check(fmt.Sprintf("cuMemAlloc(%d bytes)", n), err)
	}
	a.ptrs = append(a.ptrs, p)
	return p, nil
}

// zeros allocates n bytes set to zero.
func (a *arena) zeros(n int64) (cu.DevicePtr, error) {
	p, err := a.alloc(n)
	if err != nil {
		return 0, err
	}
	return p, check("cuMemsetD8", cu.MemsetD8(p, 0, max(n, 1)))
}

// free releases every buffer.
func (a *arena) free() {
	for _, p := range a.ptrs {
		_ = cu.MemFree(p)
	}
	a.ptrs = nil
}

// upload copies a host slice into a new device buffer.
func upload[T any](a *arena, s []T) (cu.DevicePtr, error) {
	n := int64(len(s)) * int64(unsafe.Sizeof(*new(T)))
	p, err := a.alloc(n)
	if err != nil || n == 0 {
		return p, err
	}
	return p, check(fmt.Sprintf("cuMemcpyHtoD(%d bytes)", n), cu.MemcpyHtoD(p, unsafe.Pointer(&s[0]), n))
}

// download copies len(s) elements from device memory into s.
func download[T any](s []T, p cu.DevicePtr) error {
	n := int64(len(s)) * int64(unsafe.Sizeof(*new(T)))
	if n == 0 {
		return nil
	}
	return check(fmt.Sprintf("cuMemcpyDtoH(%d bytes)", n), cu.MemcpyDtoH(unsafe.Pointer(&s[0]), p, n))
}
