/**
 * Each template's touch on the players' posters (poster.ts), added after the shared poster
 * stylesheet: the template's face (system stacks only: a poster loads no font) and its play
 * button's shape; the quiet templates (whisper, noir, mono) mute the providers' saturated
 * colours into their own. No `"` nor `&` (the stylesheet sits raw in an attribute);
 * `a[class]` outranks the providers' rules.
 *
 * POSTER_OTHER_SCHEME is the quiet templates' poster in their other scheme (templates/<id>/
 * scheme.css), which a page that follows the device (theme.scheme "auto") adds under the same
 * prefers-color-scheme query: mono's and whisper's light posters would stay light on their dark
 * page, noir's black one black on its ivory page. The other templates' posters are the
 * providers' colours, the same in both.
 */
import type { TemplateId } from '../core/schemas/fields.js';

export const POSTER_LOOKS: Record<TemplateId, string> = {
  aurora: 'a{font-weight:800;letter-spacing:-.01em}.b{box-shadow:0 0 0 6px #fff3,0 8px 24px #0006}',
  brutal:
    "a{font:900 16px/1.2 'Helvetica Neue',Arial,sans-serif;text-transform:uppercase}.b{border-radius:0;border:3px solid #000;box-shadow:4px 4px 0 #000}",
  editorial:
    "a{font:400 19px/1.3 'Iowan Old Style','Palatino Linotype',Palatino,Georgia,serif}.p{font:600 11px/1.4 system-ui,sans-serif;letter-spacing:.12em;text-transform:uppercase}.b{width:48px;height:48px}",
  mono: 'a[class]{background:#fff;color:#1c1917;font:500 14px/1.4 ui-monospace,Menlo,Consolas,monospace}a[class] .b{width:44px;height:44px;background:none;border:1px dashed #78716c;border-radius:0}a[class] .b:after{border-left-color:#1c1917}.p{color:#57534e}',
  noir: "a[class]{background:radial-gradient(circle at 50% 0,#ffffff17,#0000 65%),#0a0a0a;color:#ededed;font:400 19px/1.3 Didot,'Bodoni 72',Georgia,serif;letter-spacing:.02em}a[class] .b{background:none;border:1px solid #ffffff66}a[class] .b:after{border-left-color:#ededed}.p{font:500 11px/1.4 system-ui,sans-serif;letter-spacing:.16em;text-transform:uppercase;color:#a3a3a3}",
  photo: '.b{box-shadow:0 8px 24px #0008}',
  showcase: 'a{font-weight:800}.b{box-shadow:0 4px 14px #0005}',
  whisper:
    'a[class]{background:#f6f6f6;color:#262626;font:400 14px/1.4 system-ui,sans-serif}a[class] .b{width:40px;height:40px;background:none;border:1px solid #a3a3a3}a[class] .b:after{margin-left:3px;border-width:7px 0 7px 11px;border-left-color:#262626}.p{color:#595959}',
  y2k: "a{font:italic 900 17px/1.3 'Trebuchet MS',Verdana,sans-serif}.b{box-shadow:inset 0 -3px 0 #0003,0 0 0 4px #fff8}",
  zine: "a{font:700 15px/1.3 'Courier New',Courier,monospace;text-transform:uppercase}.b{border-radius:0;border:3px solid #111;transform:rotate(-3deg)}",
};

export const POSTER_OTHER_SCHEME: Partial<Record<TemplateId, string>> = {
  mono: 'a[class]{background:#1c1917;color:#e7e5e4}a[class] .b{border-color:#a8a29e}a[class] .b:after{border-left-color:#e7e5e4}.p{color:#a8a29e}',
  noir: 'a[class]{background:radial-gradient(circle at 50% 0,#0000000d,#0000 65%),#fff;color:#161616}a[class] .b{border-color:#00000066}a[class] .b:after{border-left-color:#161616}.p{color:#555}',
  whisper:
    'a[class]{background:#1a1a1a;color:#e5e5e5}a[class] .b{border-color:#737373}a[class] .b:after{border-left-color:#e5e5e5}.p{color:#a3a3a3}',
};
