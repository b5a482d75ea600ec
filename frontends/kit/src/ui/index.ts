// @tt/web-kit/ui — the design system's components, styled once in tokens.css, used by every app. A federation
// singleton of its own, so the shell's first page (which needs none of it) does not carry Radix.
export { Button, buttonClass, IconButton } from "./Button.tsx";
export type { ButtonProps, ButtonSize, ButtonVariant, IconButtonProps } from "./Button.tsx";
export { Badge, Card, EmptyState, ErrorMessage, Loading, Skeleton, Spinner } from "./Feedback.tsx";
export type { BadgeTone } from "./Feedback.tsx";
export { Checkbox, Field, Input, TextArea } from "./Field.tsx";
export { Combobox } from "./Combobox.tsx";
export type { ComboboxOption, ComboboxProps } from "./Combobox.tsx";
export { Avatar } from "./Avatar.tsx";
export { FollowButton } from "./FollowButton.tsx";
export type { FollowButtonProps } from "./FollowButton.tsx";
export { FollowCounts } from "./FollowCounts.tsx";
export type { FollowCountsProps } from "./FollowCounts.tsx";
export { UserBadges } from "./UserBadges.tsx";
export type { UserBadgesProps } from "./UserBadges.tsx";
export type { AvatarProps, AvatarSize } from "./Avatar.tsx";
export { ConfirmDialog, Dialog, DialogClose } from "./Dialog.tsx";
export type { ConfirmDialogProps, DialogProps } from "./Dialog.tsx";
export { PageHead } from "./PageHead.tsx";
export type { PageHeadProps } from "./PageHead.tsx";
export { Menu, MenuCheckboxItem, MenuItem, MenuLabel, MenuLinkItem, MenuSeparator, Popover, Tooltip } from "./Menu.tsx";
export { Select } from "./Select.tsx";
export type { SelectOption, SelectProps } from "./Select.tsx";
export { Slider, Switch, Tab, TabList, TabPanel, Tabs } from "./Controls.tsx";
export { Toaster } from "./Toaster.tsx";
export { createFormatters, useFormat } from "./format.ts";
export type { Formatters } from "./format.ts";
export { humanise, NAMES_NAMESPACE, namesTranslations, useNameOptions, useNames } from "./names.ts";
export type { NameKind } from "./names.ts";
export { dismissToast, toast } from "@tt/web-kit";
export type { ToastMessage, ToastTone } from "@tt/web-kit";
export {
  contrastRatio,
  NAME_CONTRAST,
  nameColorStyle,
  nameContrast,
  parseHexColor,
  readableNameColor,
} from "./name-color.ts";
export type { NameTheme } from "./name-color.ts";
