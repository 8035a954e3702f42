// The game's own script: waters thirsty plants and harvests grown ones into the first gardener's basket.
import { needsWater } from "modules/care";

export default {
  init() { return { watered: 0, harvested: 0 } },
  onTick() {
    const gardener = game.find("Gardener")[0];
    for (const plant of game.find("Plant")) {
      if (needsWater(plant)) { plant.water = 1; this.state.watered += 1; }
      if (plant.growth >= 1 && gardener) {
        const crop = plant.harvest();
        gardener.basket += crop;
        this.state.harvested += crop;
      }
    }
  },
};
