package viz

import (
	"fmt"
	"image"
	"image/png"
	"io"
)

// MaxRenderSize bounds each side of a rendered picture (8192 pixels, a
// 256 MB RGBA image): Render, Scene.Render and Scene.Click refuse larger
// sizes with an error instead of allocating them.
const MaxRenderSize = 8192

// Render makes a fresh scene called name, applies params (name=value, in
// sorted order of names) and renders it into a new w×h picture.
func Render(name string, params map[string]string, w, h int) (Scene, *image.RGBA, error) {
	if err := checkRenderSize(w, h); err != nil {
		return nil, nil, err
	}
	s, err := New(name)
	if err != nil {
		return nil, nil, err
	}
	if err := SetAll(s, params); err != nil {
		return nil, nil, err
	}
	img, err := RenderScene(s, w, h)
	if err != nil {
		return nil, nil, err
	}
	return s, img, nil
}

// RenderScene renders s as it stands (a host may have handed it a tensor
// through TensorLoader) into a new w×h picture.
func RenderScene(s Scene, w, h int) (*image.RGBA, error) {
	if err := checkRenderSize(w, h); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := s.Render(img); err != nil {
		return nil, err
	}
	return img, nil
}

// checkRenderSize refuses sizes outside MinWidth..MaxRenderSize ×
// MinHeight..MaxRenderSize, except tall ones a scene stacks (laysOut).
func checkRenderSize(w, h int) error {
	if !laysOut(w, h) || w > MaxRenderSize || h > MaxRenderSize {
		return fmt.Errorf("viz: size %dx%d: want %d..%d × %d..%d, or from %dx%d when %g times as tall as wide", w, h, MinWidth, MaxRenderSize, MinHeight, MaxRenderSize, MinStackedWidth, MinStackedHeight, StackedAspect)
	}
	return nil
}

// WritePNG encodes img as a PNG.
func WritePNG(w io.Writer, img image.Image) error {
	if w == nil || img == nil {
		return fmt.Errorf("viz: WritePNG needs a writer and an image")
	}
	return (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(w, img)
}
