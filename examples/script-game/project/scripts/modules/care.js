// Shared rules of the garden's scripts.
export const THIRSTY = 0.3;
export const needsWater = (plant) => plant.water < THIRSTY;
