/**
 * The entry module of the compute pool's threads (compute.pool.ts): every task a thread can run.
 * Each adapter keeps its engine in its own tasks module, loaded once per thread.
 */
export { faceDetect, faceLoad, faceMeshDetect, faceMeshLoad } from '../faces/human.tasks.js';
export { facePhotoRead } from '../faces/face-photo.read.js';
export { imageInspect } from '../images/image-inspector.js';
export { vadDetect } from '../vad/silero.tasks.js';
export { diarize } from '../diarization/embedded.tasks.js';
export { imageCutout, imageMotion, imageUpscale } from '../images/images.tasks.js';
export { swapFrame } from '../personas/head-swap.tasks.js';
export { highlightShortlist } from '../highlights/highlights.tasks.js';
