// Package observe is the registry through which tests watch package plot
// draw: probes that collect the texts drawn into a picture, and observers
// told of every Axes drawn and of where each legend and label went.
// Package plot reports to it; viz/plot/plottest, the exported test
// support, installs the probes and observers and reads what they saw.
//
// Nothing here changes a pixel. The drawing code asks first whether
// anyone is listening, one atomic load, so that a picture drawn with
// nobody watching does no work for them.
package observe

import (
	"image"
	"slices"
	"sync"
	"sync/atomic"
)

// Picture identifies the pixel buffer of an image and of every sub-image
// of it (such as the plot area Axes.Clip returns), so that what is drawn
// through a sub-image counts for the picture. The zero Picture is none.
type Picture struct{ end *uint8 }

// PictureOf returns the picture dst draws into: the zero Picture for a nil
// image or one without pixels.
func PictureOf(dst *image.RGBA) Picture {
	if dst == nil || cap(dst.Pix) == 0 {
		return Picture{}
	}
	// A sub-image slices the buffer from a later start: the end is shared.
	p := dst.Pix[:cap(dst.Pix)]
	return Picture{&p[len(p)-1]}
}

// Observers is a set of callbacks, each called with every value notified
// from when it is added until it is removed. The zero Observers has none.
type Observers[T any] struct {
	n    atomic.Int32 // len(fs), read without the lock
	mu   sync.Mutex
	next int
	fs   []observer[T] // in the order added
}

type observer[T any] struct {
	id int
	f  func(T)
}

// Add adds f and returns the function that removes it again; calling that
// more than once removes it once.
func (o *Observers[T]) Add(f func(T)) (remove func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	id := o.next
	o.next++
	o.fs = append(o.fs, observer[T]{id, f})
	o.n.Store(int32(len(o.fs)))
	return func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.fs = slices.DeleteFunc(o.fs, func(ob observer[T]) bool { return ob.id == id })
		o.n.Store(int32(len(o.fs)))
	}
}

// Listening reports whether any callback is installed: the drawing code
// checks it before it computes what only a callback would read.
func (o *Observers[T]) Listening() bool { return o.n.Load() != 0 }

// Notify calls every callback with v, in the order they were added. The
// calls are serialised (pictures may be drawn on several goroutines at
// once), so a callback needs no lock of its own for what only it touches.
func (o *Observers[T]) Notify(v T) {
	if !o.Listening() {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, ob := range o.fs {
		ob.f(v)
	}
}
