//go:build !js

package jsapi_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/viz"
)

// trainingCases drive the functions a page's training worker calls
// (trainingStart, trainingAdvance) and those that reach the live training
// scene (trainingPlan, trainElsewhere, feedTraining), in the core module,
// whose live scene is headless: the worker's updates, fed to the scene,
// grow its curves; stale and malformed updates are refused.
func trainingCases() []jsCase {
	return []jsCase{
		{name: "trainingAdvance before trainingStart", code: `return api.trainingAdvance(10);`, wantErr: "trainingStart(plan) first"},
		{name: "trainingStart with a bad plan", code: `return api.trainingStart("{");`, wantErr: "fp8lab.trainingStart: argument 1 (plan)"},
		{name: "trainingStart with no recipe", code: `return api.trainingStart(JSON.stringify({key: "k", recipes: [], steps: 5}));`, wantErr: "1 to 3"},
		{name: "trainingStart with a plan object", code: `return api.trainingStart({key: "k"});`, wantErr: "must be a string"},
		{name: "trainingAdvance with a huge budget", code: `return api.trainingAdvance(1e9);`, wantErr: "ms"},
		{name: "trainingPlan of a scene that does not train", code: `api.setScene("explorer"); return api.trainingPlan();`,
			check: func(t *testing.T, v any) { assert.Nil(t, v) }},
		{name: "trainElsewhere on a scene that does not train", code: `api.setScene("explorer"); return api.trainElsewhere();`, wantErr: "does not train"},
		{name: "the worker's steps fed to the scene", code: `
			api.setScene("training");
			api.setParam("recipe2", "none"); api.setParam("recipe3", "none"); api.setParam("steps", 25);
			api.trainElsewhere();
			api.setParam("train", true);
			const plan = api.trainingPlan();
			api.trainingStart(plan);
			let r, fed = 0;
			do { r = api.trainingAdvance(50); if (api.feedTraining(r.update)) fed++; } while (!r.done);
			const stale = api.feedTraining(JSON.stringify({key: "0:old", curves: []}));
			let refused = "";
			try { api.feedTraining("not json"); } catch (e) { refused = e.message; }
			const f = api.currentScene().facts;
			return [plan, fed, stale, refused, f.steps_done, f.status];`,
			check: func(t *testing.T, v any) {
				r := v.([]any)
				var plan viz.TrainingPlan
				require.NoError(t, json.Unmarshal([]byte(r[0].(string)), &plan))
				assert.Equal(t, []string{"bf16"}, plan.Recipes)
				assert.Equal(t, 25, plan.Steps)
				assert.True(t, plan.Train)
				assert.Positive(t, r[1])
				assert.Equal(t, false, r[2], "an update of another run is refused quietly")
				assert.Contains(t, r[3], "fp8lab.feedTraining: argument 1 (update)")
				assert.Equal(t, "25", r[4])
				assert.Equal(t, "done", r[5])
			}},
	}
}
