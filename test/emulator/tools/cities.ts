/** Chinese cities with their 9-digit weather.com.cn codes, latitude and a climate hint. */
export interface City {
  name: string;
  code: string;
  lat: number;
  /** annual mean temperature (℃), approximate */
  mean: number;
  /** half the summer–winter swing of the daily mean (℃), approximate */
  swing: number;
  /** humid (south / Sichuan basin) or dry (north-west) climate, 0–1 */
  wet: number;
}

/** The cities the local endpoint knows. */
export const CITIES: City[] = [
  { name: '北京', code: '101010100', lat: 39.9, mean: 12.9, swing: 15.5, wet: 0.45 },
  { name: '上海', code: '101020100', lat: 31.2, mean: 17.1, swing: 12.0, wet: 0.8 },
  { name: '天津', code: '101030100', lat: 39.1, mean: 12.9, swing: 15.5, wet: 0.45 },
  { name: '重庆', code: '101040100', lat: 29.6, mean: 18.7, swing: 10.5, wet: 0.85 },
  { name: '哈尔滨', code: '101050101', lat: 45.8, mean: 4.2, swing: 21.0, wet: 0.45 },
  { name: '长春', code: '101060101', lat: 43.9, mean: 5.7, swing: 19.5, wet: 0.45 },
  { name: '沈阳', code: '101070101', lat: 41.8, mean: 8.4, swing: 18.0, wet: 0.5 },
  { name: '呼和浩特', code: '101080101', lat: 40.8, mean: 7.3, swing: 17.0, wet: 0.3 },
  { name: '石家庄', code: '101090101', lat: 38.0, mean: 14.1, swing: 15.0, wet: 0.45 },
  { name: '太原', code: '101100101', lat: 37.9, mean: 10.8, swing: 14.5, wet: 0.4 },
  { name: '西安', code: '101110101', lat: 34.3, mean: 14.2, swing: 13.5, wet: 0.55 },
  { name: '济南', code: '101120101', lat: 36.7, mean: 14.7, swing: 14.0, wet: 0.5 },
  { name: '青岛', code: '101120201', lat: 36.1, mean: 13.0, swing: 12.5, wet: 0.6 },
  { name: '乌鲁木齐', code: '101130101', lat: 43.8, mean: 7.3, swing: 19.0, wet: 0.2 },
  { name: '拉萨', code: '101140101', lat: 29.7, mean: 8.0, swing: 9.0, wet: 0.25 },
  { name: '西宁', code: '101150101', lat: 36.6, mean: 6.1, swing: 12.0, wet: 0.3 },
  { name: '兰州', code: '101160101', lat: 36.1, mean: 10.3, swing: 13.5, wet: 0.3 },
  { name: '银川', code: '101170101', lat: 38.5, mean: 9.5, swing: 15.5, wet: 0.25 },
  { name: '郑州', code: '101180101', lat: 34.7, mean: 15.6, swing: 13.5, wet: 0.55 },
  { name: '南京', code: '101190101', lat: 32.1, mean: 16.0, swing: 12.5, wet: 0.75 },
  { name: '苏州', code: '101190401', lat: 31.3, mean: 16.5, swing: 12.0, wet: 0.8 },
  { name: '武汉', code: '101200101', lat: 30.6, mean: 17.3, swing: 12.5, wet: 0.8 },
  { name: '杭州', code: '101210101', lat: 30.3, mean: 17.5, swing: 12.0, wet: 0.82 },
  { name: '合肥', code: '101220101', lat: 31.8, mean: 16.4, swing: 12.5, wet: 0.75 },
  { name: '福州', code: '101230101', lat: 26.1, mean: 20.5, swing: 9.5, wet: 0.82 },
  { name: '厦门', code: '101230201', lat: 24.5, mean: 21.3, swing: 7.5, wet: 0.8 },
  { name: '南昌', code: '101240101', lat: 28.7, mean: 18.4, swing: 11.5, wet: 0.82 },
  { name: '长沙', code: '101250101', lat: 28.2, mean: 18.0, swing: 11.5, wet: 0.82 },
  { name: '贵阳', code: '101260101', lat: 26.6, mean: 15.3, swing: 9.0, wet: 0.88 },
  { name: '成都', code: '101270101', lat: 30.7, mean: 16.5, swing: 9.5, wet: 0.9 },
  { name: '广州', code: '101280101', lat: 23.1, mean: 22.6, swing: 7.5, wet: 0.85 },
  { name: '深圳', code: '101280601', lat: 22.5, mean: 23.0, swing: 7.0, wet: 0.85 },
  { name: '昆明', code: '101290101', lat: 25.0, mean: 15.6, swing: 5.5, wet: 0.6 },
  { name: '南宁', code: '101300101', lat: 22.8, mean: 22.0, swing: 7.5, wet: 0.85 },
  { name: '海口', code: '101310101', lat: 20.0, mean: 24.5, swing: 5.0, wet: 0.85 },
];

/** Finds a city by 9-digit code or by name (a trailing 市 is ignored). */
export function findCity(location: string): City | undefined {
  const s = location.trim();
  if (/^\d{9}$/.test(s)) return CITIES.find((c) => c.code === s);
  const name = s.replace(/市$/, '');
  return CITIES.find((c) => c.name === name);
}
