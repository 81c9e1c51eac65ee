// Package quality measures how far a quantized picture is from its
// original: the numbers printed beside package dither's images. MSE and
// PSNR compare pixel by pixel; BlurredPSNR compares after the Gaussian
// blur (Blur) that models looking from farther away, where the eye
// averages neighbouring pixels and dithering's correct local means count;
// SSIM (Wang et al. 2004) compares local means, contrasts and
// correlations; AveragePSNR follows the mean of N dithered frames, whose
// PSNR rises by about 3 dB per doubling of N for the Stochastic method
// while every deterministic method stays where it is.
//
// The images are dither.Gray values with a peak of 1 (white). A nil,
// empty or non-finite image, two images of different sizes or a blur
// outside (0, 16] pixels is an error wrapping dither.ErrInvalidArgument or
// dither.ErrNaN, the errors of the images themselves.
package quality
