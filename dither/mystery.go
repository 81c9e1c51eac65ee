package dither

import (
	"fmt"
	"math"
)

// MaxMysterySide bounds each side of the generated mystery image.
const MaxMysterySide = 8192

// Mystery returns the built-in test picture at any size: a dusk scene drawn
// by code, with a gradient sky, a pale sun, faint clouds, the letters
// "FP8" a little brighter than the sky, a checkered floor in perspective
// and a soft-shaded sphere with its shadow.
//
// Almost everything in it has a contrast below one step of a two-level
// quantization: the sky, sun, clouds and letters all lie above 1/2 and the
// floor, shadow and most of the sphere below it. Rounding to nearest at 2
// levels therefore leaves a white sky over a black silhouette (and a white
// highlight), while every dithering method brings the picture back.
// The image is square-framed: the scene fills the shorter side and extends
// sideways or downwards on the longer one. Each pixel averages 3×3 samples.
func Mystery(width, height int) (*Gray, error) {
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	if width > MaxMysterySide || height > MaxMysterySide {
		return nil, fmt.Errorf("%w: mystery image sides are at most %d, got %dx%d", ErrInvalidArgument, MaxMysterySide, width, height)
	}
	g := &Gray{width: width, height: height, pix: make([]float32, width*height)}
	side := float64(min(width, height))
	const ss = 3 // samples per pixel along each axis
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			var sum float64
			for j := 0; j < ss; j++ {
				for i := 0; i < ss; i++ {
					px := (float64(x) + (float64(i)+0.5)/ss - float64(width)/2) / side
					py := (float64(y) + (float64(j)+0.5)/ss - float64(height)/2) / side
					sum += mysteryScene(px, py)
				}
			}
			g.pix[y*width+x] = float32(sum / (ss * ss))
		}
	}
	return g, nil
}

// Scene geometry, in units of the shorter image side, origin at the centre,
// y pointing down.
const (
	horizon       = 0.12
	sunX, sunY    = 0.25, -0.24
	sunRadius     = 0.075
	sphereX       = -0.10
	sphereY       = 0.07
	sphereRadius  = 0.22
	textLeft      = -0.44
	textTop       = -0.43
	textCell      = 0.024
	floorTile     = 0.25 // world units of one checker square
	cameraHeight  = 0.08 // world depth = cameraHeight / (py - horizon)
	checkContrast = 0.08
)

// mysteryScene returns the luminance at point (px, py) of the scene.
func mysteryScene(px, py float64) float64 {
	var v float64
	if py < horizon {
		v = sky(px, py)
	} else {
		v = floorPlane(px, py)
	}
	if s, ok := sphere(px, py); ok {
		v = s
	}
	return min(max(v, 0), 1)
}

// sky is a gradient from 0.52 at the top to 0.9 at the horizon, with a pale
// sun and its glow, two faint darker clouds and the letters FP8.
func sky(px, py float64) float64 {
	t := min(max((py+0.5)/(horizon+0.5), 0), 1)
	v := 0.52 + 0.38*t
	// Sun: a bright disc with a glow that fades as 1/(1 + d²/w²).
	dx, dy := px-sunX, py-sunY
	d2 := dx*dx + dy*dy
	v += 0.16 / (1 + d2/(0.09*0.09))
	if d2 < sunRadius*sunRadius {
		v = 0.99
	}
	// Clouds: soft ellipses slightly darker than the sky.
	v -= 0.07 * blob(px, py, -0.05, -0.12, 0.22, 0.035)
	v -= 0.06 * blob(px, py, 0.33, -0.05, 0.16, 0.025)
	// Letters, 0.2 brighter than the sky around them.
	if inText(px, py) {
		v += 0.2
	}
	return v
}

// blob is a soft ellipse: 1 inside, fading to 0 at twice the radii.
func blob(px, py, cx, cy, rx, ry float64) float64 {
	dx, dy := (px-cx)/rx, (py-cy)/ry
	d2 := dx*dx + dy*dy
	if d2 >= 4 {
		return 0
	}
	if d2 <= 1 {
		return 1
	}
	s := (4 - d2) / 3 // 1 at the rim, 0 at twice the radius
	return s * s * (3 - 2*s)
}

// glyphs is a 5×7 pixel font for the letters of the picture, one string
// of 35 characters per glyph, row by row.
var glyphs = [...]string{
	"#####" + "#...." + "#...." + "####." + "#...." + "#...." + "#....", // F
	"####." + "#...#" + "#...#" + "####." + "#...." + "#...." + "#....", // P
	".###." + "#...#" + "#...#" + ".###." + "#...#" + "#...#" + ".###.", // 8
}

// inText reports whether (px, py) falls on a set cell of the word "FP8".
func inText(px, py float64) bool {
	cx := int(math.Floor((px - textLeft) / textCell))
	cy := int(math.Floor((py - textTop) / textCell))
	if cx < 0 || cy < 0 || cy >= 7 {
		return false
	}
	letter, col := cx/6, cx%6
	if letter >= len(glyphs) || col == 5 {
		return false
	}
	return glyphs[letter][cy*5+col] == '#'
}

// floorPlane is a checkered plane in perspective, lighter toward the horizon
// (haze), with the sphere's soft shadow.
func floorPlane(px, py float64) float64 {
	dz := py - horizon
	depth := cameraHeight / max(dz, 1e-6)
	wx := px * depth
	v := 0.19 + 0.13*min(max(1-dz/0.38, 0), 1)
	// The checker fades out toward the horizon, where its squares get
	// smaller than a pixel.
	fade := min(max((dz-0.012)/0.1, 0), 1)
	if (int(math.Floor(wx/floorTile))+int(math.Floor(depth/floorTile)))%2 == 0 {
		v += checkContrast * fade
	} else {
		v -= checkContrast * fade
	}
	// Shadow cast down and to the left of the sphere (the sun is upper right).
	v *= 1 - 0.5*blob(px, py, sphereX-0.07, sphereY+sphereRadius+0.01, 0.2, 0.035)
	return v
}

// sphere shades the ball: Lambertian diffuse light from the sun's
// direction, a little ambient light, a faint band around its middle and a
// small specular highlight, the only part above 1/2.
func sphere(px, py float64) (float64, bool) {
	nx, ny := (px-sphereX)/sphereRadius, (py-sphereY)/sphereRadius
	r2 := nx*nx + ny*ny
	if r2 >= 1 {
		return 0, false
	}
	nz := math.Sqrt(1 - r2)
	// Light direction (right, up, toward the viewer), normalized.
	const lx, ly, lz = 0.56, -0.56, 0.6107372593840988
	diffuse := max(nx*lx+ny*ly+nz*lz, 0)
	albedo := 1.0
	if band := ny - 0.35*nx; band > -0.12 && band < 0.08 {
		albedo = 0.78 // a darker stripe, tilted
	}
	v := 0.05 + 0.42*diffuse*albedo
	// Blinn–Phong highlight: half vector between light and view (0, 0, 1).
	hx, hy, hz := lx, ly, lz+1
	hn := math.Sqrt(hx*hx + hy*hy + hz*hz)
	s := max((nx*hx+ny*hy+nz*hz)/hn, 0)
	for i := 0; i < 6; i++ { // s^64
		s *= s
	}
	return v + 0.6*s, true
}
