/** The payload shape the feature reads (src/shunong's validated type, imported as a type only). */
import type { RecognitionResult } from '../shunong/index';

export { RECOGNITION_TYPES, isRecognitionType, type RecognitionType } from './protocol';

/** The validated result of crop_growth_recognize. */
export type Recognition = RecognitionResult;

/** One detection box. */
export type RecognitionDetection = Recognition['data']['detections'][number];
