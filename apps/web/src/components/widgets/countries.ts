/**
 * Countries and regions with their telephone area codes (spec §3: USA/Canada 1 first,
 * then China 86, Hong Kong 852, Macau 853, Taiwan 886, Japan 81, South Korea 82; default +86).
 * Names are data in both languages, like the language names of the language switch.
 */
export interface Country {
  zh: string;
  en: string;
  areaCode: string;
}

export const DEFAULT_AREA = '86';

/** The ones the spec puts first, in its order. */
const FIRST: Country[] = [
  { zh: '美国/加拿大', en: 'USA/Canada', areaCode: '1' },
  { zh: '中国', en: 'China', areaCode: '86' },
  { zh: '中国香港', en: 'Hong Kong', areaCode: '852' },
  { zh: '中国澳门', en: 'Macau', areaCode: '853' },
  { zh: '中国台湾', en: 'Taiwan', areaCode: '886' },
  { zh: '日本', en: 'Japan', areaCode: '81' },
  { zh: '韩国', en: 'South Korea', areaCode: '82' },
];

/** The rest, alphabetical by English name. */
const REST: Country[] = [
  { zh: '阿富汗', en: 'Afghanistan', areaCode: '93' },
  { zh: '阿尔巴尼亚', en: 'Albania', areaCode: '355' },
  { zh: '阿尔及利亚', en: 'Algeria', areaCode: '213' },
  { zh: '安哥拉', en: 'Angola', areaCode: '244' },
  { zh: '阿根廷', en: 'Argentina', areaCode: '54' },
  { zh: '亚美尼亚', en: 'Armenia', areaCode: '374' },
  { zh: '澳大利亚', en: 'Australia', areaCode: '61' },
  { zh: '奥地利', en: 'Austria', areaCode: '43' },
  { zh: '阿塞拜疆', en: 'Azerbaijan', areaCode: '994' },
  { zh: '巴林', en: 'Bahrain', areaCode: '973' },
  { zh: '孟加拉国', en: 'Bangladesh', areaCode: '880' },
  { zh: '白俄罗斯', en: 'Belarus', areaCode: '375' },
  { zh: '比利时', en: 'Belgium', areaCode: '32' },
  { zh: '玻利维亚', en: 'Bolivia', areaCode: '591' },
  { zh: '波黑', en: 'Bosnia and Herzegovina', areaCode: '387' },
  { zh: '巴西', en: 'Brazil', areaCode: '55' },
  { zh: '文莱', en: 'Brunei', areaCode: '673' },
  { zh: '保加利亚', en: 'Bulgaria', areaCode: '359' },
  { zh: '柬埔寨', en: 'Cambodia', areaCode: '855' },
  { zh: '喀麦隆', en: 'Cameroon', areaCode: '237' },
  { zh: '智利', en: 'Chile', areaCode: '56' },
  { zh: '哥伦比亚', en: 'Colombia', areaCode: '57' },
  { zh: '哥斯达黎加', en: 'Costa Rica', areaCode: '506' },
  { zh: '克罗地亚', en: 'Croatia', areaCode: '385' },
  { zh: '古巴', en: 'Cuba', areaCode: '53' },
  { zh: '塞浦路斯', en: 'Cyprus', areaCode: '357' },
  { zh: '捷克', en: 'Czechia', areaCode: '420' },
  { zh: '丹麦', en: 'Denmark', areaCode: '45' },
  { zh: '多米尼加', en: 'Dominican Republic', areaCode: '1809' },
  { zh: '厄瓜多尔', en: 'Ecuador', areaCode: '593' },
  { zh: '埃及', en: 'Egypt', areaCode: '20' },
  { zh: '爱沙尼亚', en: 'Estonia', areaCode: '372' },
  { zh: '埃塞俄比亚', en: 'Ethiopia', areaCode: '251' },
  { zh: '芬兰', en: 'Finland', areaCode: '358' },
  { zh: '法国', en: 'France', areaCode: '33' },
  { zh: '格鲁吉亚', en: 'Georgia', areaCode: '995' },
  { zh: '德国', en: 'Germany', areaCode: '49' },
  { zh: '加纳', en: 'Ghana', areaCode: '233' },
  { zh: '希腊', en: 'Greece', areaCode: '30' },
  { zh: '危地马拉', en: 'Guatemala', areaCode: '502' },
  { zh: '洪都拉斯', en: 'Honduras', areaCode: '504' },
  { zh: '匈牙利', en: 'Hungary', areaCode: '36' },
  { zh: '冰岛', en: 'Iceland', areaCode: '354' },
  { zh: '印度', en: 'India', areaCode: '91' },
  { zh: '印度尼西亚', en: 'Indonesia', areaCode: '62' },
  { zh: '伊朗', en: 'Iran', areaCode: '98' },
  { zh: '伊拉克', en: 'Iraq', areaCode: '964' },
  { zh: '爱尔兰', en: 'Ireland', areaCode: '353' },
  { zh: '以色列', en: 'Israel', areaCode: '972' },
  { zh: '意大利', en: 'Italy', areaCode: '39' },
  { zh: '科特迪瓦', en: "Côte d'Ivoire", areaCode: '225' },
  { zh: '牙买加', en: 'Jamaica', areaCode: '1876' },
  { zh: '约旦', en: 'Jordan', areaCode: '962' },
  { zh: '哈萨克斯坦', en: 'Kazakhstan', areaCode: '7' },
  { zh: '肯尼亚', en: 'Kenya', areaCode: '254' },
  { zh: '科威特', en: 'Kuwait', areaCode: '965' },
  { zh: '吉尔吉斯斯坦', en: 'Kyrgyzstan', areaCode: '996' },
  { zh: '老挝', en: 'Laos', areaCode: '856' },
  { zh: '拉脱维亚', en: 'Latvia', areaCode: '371' },
  { zh: '黎巴嫩', en: 'Lebanon', areaCode: '961' },
  { zh: '利比亚', en: 'Libya', areaCode: '218' },
  { zh: '立陶宛', en: 'Lithuania', areaCode: '370' },
  { zh: '卢森堡', en: 'Luxembourg', areaCode: '352' },
  { zh: '马达加斯加', en: 'Madagascar', areaCode: '261' },
  { zh: '马来西亚', en: 'Malaysia', areaCode: '60' },
  { zh: '马尔代夫', en: 'Maldives', areaCode: '960' },
  { zh: '马耳他', en: 'Malta', areaCode: '356' },
  { zh: '毛里求斯', en: 'Mauritius', areaCode: '230' },
  { zh: '墨西哥', en: 'Mexico', areaCode: '52' },
  { zh: '摩尔多瓦', en: 'Moldova', areaCode: '373' },
  { zh: '摩纳哥', en: 'Monaco', areaCode: '377' },
  { zh: '蒙古', en: 'Mongolia', areaCode: '976' },
  { zh: '黑山', en: 'Montenegro', areaCode: '382' },
  { zh: '摩洛哥', en: 'Morocco', areaCode: '212' },
  { zh: '莫桑比克', en: 'Mozambique', areaCode: '258' },
  { zh: '缅甸', en: 'Myanmar', areaCode: '95' },
  { zh: '纳米比亚', en: 'Namibia', areaCode: '264' },
  { zh: '尼泊尔', en: 'Nepal', areaCode: '977' },
  { zh: '荷兰', en: 'Netherlands', areaCode: '31' },
  { zh: '新西兰', en: 'New Zealand', areaCode: '64' },
  { zh: '尼加拉瓜', en: 'Nicaragua', areaCode: '505' },
  { zh: '尼日利亚', en: 'Nigeria', areaCode: '234' },
  { zh: '北马其顿', en: 'North Macedonia', areaCode: '389' },
  { zh: '挪威', en: 'Norway', areaCode: '47' },
  { zh: '阿曼', en: 'Oman', areaCode: '968' },
  { zh: '巴基斯坦', en: 'Pakistan', areaCode: '92' },
  { zh: '巴拿马', en: 'Panama', areaCode: '507' },
  { zh: '巴拉圭', en: 'Paraguay', areaCode: '595' },
  { zh: '秘鲁', en: 'Peru', areaCode: '51' },
  { zh: '菲律宾', en: 'Philippines', areaCode: '63' },
  { zh: '波兰', en: 'Poland', areaCode: '48' },
  { zh: '葡萄牙', en: 'Portugal', areaCode: '351' },
  { zh: '卡塔尔', en: 'Qatar', areaCode: '974' },
  { zh: '罗马尼亚', en: 'Romania', areaCode: '40' },
  { zh: '俄罗斯', en: 'Russia', areaCode: '7' },
  { zh: '卢旺达', en: 'Rwanda', areaCode: '250' },
  { zh: '沙特阿拉伯', en: 'Saudi Arabia', areaCode: '966' },
  { zh: '塞内加尔', en: 'Senegal', areaCode: '221' },
  { zh: '塞尔维亚', en: 'Serbia', areaCode: '381' },
  { zh: '新加坡', en: 'Singapore', areaCode: '65' },
  { zh: '斯洛伐克', en: 'Slovakia', areaCode: '421' },
  { zh: '斯洛文尼亚', en: 'Slovenia', areaCode: '386' },
  { zh: '南非', en: 'South Africa', areaCode: '27' },
  { zh: '西班牙', en: 'Spain', areaCode: '34' },
  { zh: '斯里兰卡', en: 'Sri Lanka', areaCode: '94' },
  { zh: '苏丹', en: 'Sudan', areaCode: '249' },
  { zh: '瑞典', en: 'Sweden', areaCode: '46' },
  { zh: '瑞士', en: 'Switzerland', areaCode: '41' },
  { zh: '叙利亚', en: 'Syria', areaCode: '963' },
  { zh: '塔吉克斯坦', en: 'Tajikistan', areaCode: '992' },
  { zh: '坦桑尼亚', en: 'Tanzania', areaCode: '255' },
  { zh: '泰国', en: 'Thailand', areaCode: '66' },
  { zh: '突尼斯', en: 'Tunisia', areaCode: '216' },
  { zh: '土耳其', en: 'Türkiye', areaCode: '90' },
  { zh: '土库曼斯坦', en: 'Turkmenistan', areaCode: '993' },
  { zh: '乌干达', en: 'Uganda', areaCode: '256' },
  { zh: '乌克兰', en: 'Ukraine', areaCode: '380' },
  { zh: '阿联酋', en: 'United Arab Emirates', areaCode: '971' },
  { zh: '英国', en: 'United Kingdom', areaCode: '44' },
  { zh: '乌拉圭', en: 'Uruguay', areaCode: '598' },
  { zh: '乌兹别克斯坦', en: 'Uzbekistan', areaCode: '998' },
  { zh: '委内瑞拉', en: 'Venezuela', areaCode: '58' },
  { zh: '越南', en: 'Vietnam', areaCode: '84' },
  { zh: '也门', en: 'Yemen', areaCode: '967' },
  { zh: '赞比亚', en: 'Zambia', areaCode: '260' },
  { zh: '津巴布韦', en: 'Zimbabwe', areaCode: '263' },
];

export const COUNTRIES: readonly Country[] = [...FIRST, ...REST];

/** Area codes for the picker, each once, in list order (Russia and Kazakhstan share 7). */
export function areaOptions(lang: 'zh' | 'en'): { value: string; label: string; search: string }[] {
  const byCode = new Map<string, Country[]>();
  for (const c of COUNTRIES) byCode.set(c.areaCode, [...(byCode.get(c.areaCode) ?? []), c]);
  return [...byCode].map(([code, list]) => {
    const names = list.map((c) => c[lang]).join(' / ');
    return { value: code, label: `+${code} ${names}`, search: `+${code} ${list.map((c) => `${c.zh} ${c.en}`).join(' ')}`.toLowerCase() };
  });
}

/**
 * Spec §5: an 11-digit number starting with 1 under a foreign area code is probably a
 * Chinese mobile entered without switching to +86 — worth a warning, not an error.
 */
export function looksDomesticUnderForeignCode(mobile: string, areaCode: string): boolean {
  return areaCode !== DEFAULT_AREA && /^1\d{10}$/.test(mobile);
}
