/**
 * Loaded before every test file in every lane (see vitest.config.ts).
 *
 * `addEqualityTesters` teaches `expect(...).toEqual` Effect's structural equality (`Equal`), so
 * Options, Exits, Data classes and Schema values compare by value.
 */
import { addEqualityTesters } from "@effect/vitest"

addEqualityTesters()
