package app

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/fp8lab/fp8lab/viz/app/internal/ui"
)

// repeatKeys are repeated while held, after a short delay.
var repeatKeys = []ebiten.Key{ebiten.KeyArrowLeft, ebiten.KeyArrowRight, ebiten.KeyArrowUp, ebiten.KeyArrowDown, ebiten.KeyBackspace}

// keyMap maps ebiten's keys to the shell's.
var keyMap = map[ebiten.Key]ui.Key{
	ebiten.KeyDigit1: ui.KeyDigit1, ebiten.KeyDigit2: ui.KeyDigit2, ebiten.KeyDigit3: ui.KeyDigit3,
	ebiten.KeyDigit4: ui.KeyDigit4, ebiten.KeyDigit5: ui.KeyDigit5, ebiten.KeyDigit6: ui.KeyDigit6,
	ebiten.KeyDigit7: ui.KeyDigit7, ebiten.KeyDigit8: ui.KeyDigit8, ebiten.KeyDigit9: ui.KeyDigit9,
	ebiten.KeyTab: ui.KeyNextScene, ebiten.KeyPageDown: ui.KeyNextScene, ebiten.KeyPageUp: ui.KeyPrevScene,
	ebiten.KeyArrowUp: ui.KeyUp, ebiten.KeyArrowDown: ui.KeyDown, ebiten.KeyArrowLeft: ui.KeyLeft, ebiten.KeyArrowRight: ui.KeyRight,
	ebiten.KeyEnter: ui.KeyEnter, ebiten.KeyNumpadEnter: ui.KeyEnter, ebiten.KeySpace: ui.KeySpace,
	ebiten.KeyEscape: ui.KeyEscape, ebiten.KeyBackspace: ui.KeyBackspace,
	ebiten.KeyR: ui.KeyReset, ebiten.KeyH: ui.KeyTogglePanel, ebiten.KeyS: ui.KeySave, ebiten.KeyP: ui.KeyPresent,
	ebiten.KeyE: ui.KeyExplain,
}

// mapKey returns the shell's key for k (Shift+Tab goes back).
func mapKey(k ebiten.Key, shift bool) ui.Key {
	if k == ebiten.KeyTab && shift {
		return ui.KeyPrevScene
	}
	return keyMap[k]
}

// inpututilF11 reports whether F11 (full screen) was just pressed.
func inpututilF11() bool { return inpututil.IsKeyJustPressed(ebiten.KeyF11) }

// pollInput reads ebiten's input state for one tick; with buttons, the
// left button's presses and releases too, as Pointers (a press and a
// release in the same tick both count).
func pollInput(buttons bool) ui.Input {
	var in ui.Input
	in.X, in.Y = ebiten.CursorPosition()
	if buttons {
		if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
			in.Pointers = append(in.Pointers, ui.Pointer{X: in.X, Y: in.Y, Down: true})
		}
		if inpututil.IsMouseButtonJustReleased(ebiten.MouseButtonLeft) {
			in.Pointers = append(in.Pointers, ui.Pointer{X: in.X, Y: in.Y})
		}
	}
	in.Down = ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft)
	_, in.Wheel = ebiten.Wheel()
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	keys := inpututil.AppendJustPressedKeys(nil)
	for _, k := range repeatKeys {
		if d := inpututil.KeyPressDuration(k); d > 24 && d%3 == 0 {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if u := mapKey(k, shift); u != ui.KeyNone {
			in.Keys = append(in.Keys, u)
		}
	}
	in.Chars = ebiten.AppendInputChars(nil)
	return in
}
