package ui

import (
	"fmt"

	"github.com/fp8lab/fp8lab/viz"
)

// TrainElsewhere tells the current scene, a viz.RemoteTrainer, that the
// host trains its live run (a browser's Web Worker).
func (g *Shell) TrainElsewhere() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	r, ok := g.scene().(viz.RemoteTrainer)
	if !ok {
		return fmt.Errorf("%w: scene %s does not train", viz.ErrParam, g.cur)
	}
	r.TrainElsewhere()
	g.wake()
	return nil
}

// FeedTraining hands an update trained elsewhere to the current scene and
// schedules a frame to show it.
func (g *Shell) FeedTraining(u viz.TrainingUpdate) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	r, ok := g.scene().(viz.RemoteTrainer)
	if !ok {
		return fmt.Errorf("%w: scene %s does not train", viz.ErrParam, g.cur)
	}
	if err := r.FeedTraining(u); err != nil {
		return err
	}
	g.wake()
	return nil
}
